/* pthread_cond_signal unblocks at least one of the threads blocked on the
 * condition variable; repeated signals release them all, one by one (POSIX
 * pthread_cond_signal). */
#include "../conform.h"
#define N 5
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int waiting, tokens, done;
static void *fn(void *a)
{
	pthread_mutex_lock(&m);
	waiting++;
	while (tokens == 0)
		pthread_cond_wait(&c, &m);
	tokens--;
	done++;
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++) {
		OK(pthread_mutex_lock(&m));
		tokens++;
		OK(pthread_cond_signal(&c));
		OK(pthread_mutex_unlock(&m));
	}
	for (int i = 0; i < N; i++)
		join(t[i]);
	CHECK(done == N);
	pass();
}
