/* sem_getvalue does not change the semaphore (POSIX sem_getvalue). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	int v;
	CHECK(sem_init(&s, 0, 3) == 0);
	for (int i = 0; i < 5; i++)
		CHECK(sem_getvalue(&s, &v) == 0 && v == 3);
	pass();
}
