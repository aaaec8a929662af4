/* No destructor is called for a key whose value is NULL at thread exit
 * (POSIX pthread_key_create). */
#include "../conform.h"
static pthread_key_t k;
static int calls;
static void d(void *v) { calls++; }
static void *fn(void *a) { pthread_setspecific(k, "x"); pthread_setspecific(k, NULL); return NULL; }
static void *idle(void *a) { return NULL; }
int main(void)
{
	OK(pthread_key_create(&k, d));
	join(spawn(fn, NULL));
	join(spawn(idle, NULL));
	CHECK(calls == 0);
	pass();
}
