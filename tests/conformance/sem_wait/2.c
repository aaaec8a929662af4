/* sem_wait on a zero semaphore blocks until another thread posts it (POSIX
 * sem_wait). */
#include "../conform.h"
static sem_t s, trying;
static volatile int got, posted;
static void *fn(void *a) { sem_post(&trying); int r = sem_wait(&s); got = 1 + posted; return (void *)(intptr_t)r; }
int main(void)
{
	CHECK(sem_init(&s, 0, 0) == 0);
	sem_init(&trying, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	settle(50);
	CHECK(got == 0);
	posted = 1;
	CHECK(sem_post(&s) == 0);
	CHECK(join(t) == 0);
	CHECK(got == 2);
	pass();
}
