/* Each thread's destructor call gets that thread's own value (POSIX
 * pthread_key_create: destructor called with the value associated with the
 * key in the exiting thread). */
#include "../conform.h"
#define N 6
static pthread_key_t k;
static int hits[N];
static void d(void *v) { __atomic_fetch_add(&hits[(intptr_t)v - 1], 1, __ATOMIC_SEQ_CST); }
static void *fn(void *a) { pthread_setspecific(k, a); return NULL; }
int main(void)
{
	pthread_t t[N];
	OK(pthread_key_create(&k, d));
	for (intptr_t i = 0; i < N; i++)
		t[i] = spawn(fn, (void *)(i + 1));
	for (int i = 0; i < N; i++)
		join(t[i]);
	for (int i = 0; i < N; i++)
		CHECK(hits[i] == 1);
	pass();
}
