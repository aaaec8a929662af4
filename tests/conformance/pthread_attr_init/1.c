/* pthread_attr_init returns 0 and the object it initialises creates a
 * thread like the defaults do (POSIX pthread_attr_init). */
#include "../conform.h"
static void *fn(void *a) { return a; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	void *v;
	OK(pthread_attr_init(&at));
	OK(pthread_create(&t, &at, fn, (void *)3));
	OK(pthread_join(t, &v));
	CHECK(v == (void *)3);
	pass();
}
