/* Many threads timing out on the same condition variable each return
 * ETIMEDOUT holding the mutex in turn (POSIX pthread_cond_timedwait). */
#include "../conform.h"
#define N 8
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int inside, overlap;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_REALTIME, 40);
	int r;
	pthread_mutex_lock(&m);
	while ((r = pthread_cond_timedwait(&c, &m, &dl)) == 0)
		;
	if (++inside != 1)
		overlap = 1;
	inside--;
	pthread_mutex_unlock(&m);
	return (void *)(intptr_t)r;
}
int main(void)
{
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		CHECK(join(t[i]) == (void *)ETIMEDOUT);
	CHECK(!overlap);
	pass();
}
