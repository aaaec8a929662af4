/* sem_getvalue on a semaphore with waiters reports zero or a negative
 * number whose magnitude is the waiter count; this system reports zero
 * (POSIX sem_getvalue allows either). */
#include "../conform.h"
static sem_t s, trying;
static void *fn(void *a) { sem_post(&trying); sem_wait_ok(&s); return NULL; }
int main(void)
{
	int v = 99;
	CHECK(sem_init(&s, 0, 0) == 0);
	sem_init(&trying, 0, 0);
	pthread_t t1 = spawn(fn, NULL), t2 = spawn(fn, NULL);
	sem_wait_ok(&trying);
	sem_wait_ok(&trying);
	settle(20);
	CHECK(sem_getvalue(&s, &v) == 0);
	CHECK(v == 0 || v == -2);
	sem_post(&s);
	sem_post(&s);
	join(t1);
	join(t2);
	pass();
}
