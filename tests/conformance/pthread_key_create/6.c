/* If a destructor sets a non-NULL value again, the destructors are called
 * again, up to PTHREAD_DESTRUCTOR_ITERATIONS rounds, which is at least 4
 * (POSIX pthread_key_create, limits.h). */
#include "../conform.h"
static pthread_key_t k;
static int rounds;
static void d(void *v)
{
	if (++rounds < 3)
		pthread_setspecific(k, "again");
}
static void *fn(void *a) { pthread_setspecific(k, "x"); return NULL; }
int main(void)
{
	CHECK(PTHREAD_DESTRUCTOR_ITERATIONS >= 4);
	OK(pthread_key_create(&k, d));
	join(spawn(fn, NULL));
	CHECK(rounds == 3);
	pass();
}
