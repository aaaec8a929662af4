/* A thread spinning in pthread_spin_lock gets the lock once its holder
 * releases it, even if the holder was descheduled meanwhile (POSIX
 * pthread_spin_lock). */
#include "../conform.h"
static pthread_spinlock_t s;
static sem_t trying;
static void *fn(void *a)
{
	sem_post(&trying);
	int r = pthread_spin_lock(&s);
	if (r == 0)
		pthread_spin_unlock(&s);
	return (void *)(intptr_t)r;
}
int main(void)
{
	OK(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE));
	sem_init(&trying, 0, 0);
	OK(pthread_spin_lock(&s));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	settle(20);
	OK(pthread_spin_unlock(&s));
	CHECK(join(t) == 0);
	pass();
}
