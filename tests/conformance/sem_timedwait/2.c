/* sem_timedwait on a positive semaphore succeeds even when abstime has long
 * passed: it never times out if the semaphore can be locked at once (POSIX
 * sem_timedwait). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	struct timespec past = {0, 0};
	CHECK(sem_init(&s, 0, 1) == 0);
	CHECK(sem_timedwait(&s, &past) == 0);
	pass();
}
