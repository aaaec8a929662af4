/* sem_wait on a semaphore with a positive value decrements it and returns 0
 * at once (POSIX sem_wait). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	int v;
	CHECK(sem_init(&s, 0, 2) == 0);
	CHECK(sem_wait(&s) == 0);
	CHECK(sem_getvalue(&s, &v) == 0 && v == 1);
	CHECK(sem_wait(&s) == 0);
	CHECK(sem_getvalue(&s, &v) == 0 && v == 0);
	pass();
}
