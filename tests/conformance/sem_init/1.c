/* sem_init sets the semaphore's value to the given value, as sem_getvalue
 * reports (POSIX sem_init). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	int v = -1;
	CHECK(sem_init(&s, 0, 5) == 0);
	CHECK(sem_getvalue(&s, &v) == 0 && v == 5);
	CHECK(sem_destroy(&s) == 0);
	pass();
}
