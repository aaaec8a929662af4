/* setspecific may be called from a destructor; the value it sets there is
 * seen by getspecific in that destructor (POSIX pthread_setspecific). */
#include "../conform.h"
static pthread_key_t k, k2;
static void *seen;
static void d(void *v) { pthread_setspecific(k2, "late"); seen = pthread_getspecific(k2); }
static void *fn(void *a) { pthread_setspecific(k, "x"); return NULL; }
int main(void)
{
	OK(pthread_key_create(&k, d));
	OK(pthread_key_create(&k2, NULL));
	join(spawn(fn, NULL));
	CHECK(seen && strcmp(seen, "late") == 0);
	pass();
}
