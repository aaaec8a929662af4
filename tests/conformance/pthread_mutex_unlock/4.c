/* After unlock, a thread blocked in pthread_mutex_lock on that mutex gets it
 * (POSIX pthread_mutex_unlock: the scheduling policy picks the next owner). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t trying;
static void *fn(void *a)
{
	sem_post(&trying);
	int r = pthread_mutex_lock(&m);
	if (r == 0)
		r = pthread_mutex_unlock(&m);
	return (void *)(intptr_t)r;
}
int main(void)
{
	sem_init(&trying, 0, 0);
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	settle(20);
	OK(pthread_mutex_unlock(&m));
	CHECK(join(t) == 0);
	pass();
}
