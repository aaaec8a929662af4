/* sem_destroy of an unnamed semaphore no thread waits on returns 0, and the
 * semaphore can be initialised again (POSIX sem_destroy). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	int v;
	CHECK(sem_init(&s, 0, 1) == 0);
	CHECK(sem_wait(&s) == 0);
	CHECK(sem_destroy(&s) == 0);
	CHECK(sem_init(&s, 0, 3) == 0);
	CHECK(sem_getvalue(&s, &v) == 0 && v == 3);
	CHECK(sem_destroy(&s) == 0);
	pass();
}
