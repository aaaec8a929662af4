/* Of the threads released together by a barrier, exactly one gets
 * PTHREAD_BARRIER_SERIAL_THREAD and the others 0 (POSIX
 * pthread_barrier_wait). */
#include "../conform.h"
#define N 6
static pthread_barrier_t b;
static void *fn(void *a) { return (void *)(intptr_t)pthread_barrier_wait(&b); }
int main(void)
{
	pthread_t t[N];
	int serial = 0, zero = 0;
	OK(pthread_barrier_init(&b, NULL, N));
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++) {
		intptr_t r = (intptr_t)join(t[i]);
		serial += r == PTHREAD_BARRIER_SERIAL_THREAD;
		zero += r == 0;
	}
	CHECK(serial == 1 && zero == N - 1);
	pass();
}
