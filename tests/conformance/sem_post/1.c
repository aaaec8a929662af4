/* sem_post with no waiters increments the value (POSIX sem_post). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	int v;
	CHECK(sem_init(&s, 0, 0) == 0);
	CHECK(sem_post(&s) == 0);
	CHECK(sem_post(&s) == 0);
	CHECK(sem_getvalue(&s, &v) == 0 && v == 2);
	pass();
}
