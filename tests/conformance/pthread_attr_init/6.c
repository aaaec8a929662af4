/* One attributes object can create several threads (POSIX pthread_attr_init:
 * an attributes object is used in several pthread_create calls). */
#include "../conform.h"
static void *fn(void *a) { return a; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t[4];
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setstacksize(&at, 1 << 20));
	for (intptr_t i = 0; i < 4; i++)
		OK(pthread_create(&t[i], &at, fn, (void *)i));
	for (intptr_t i = 0; i < 4; i++)
		CHECK(join(t[i]) == (void *)i);
	OK(pthread_attr_destroy(&at));
	pass();
}
