/* A value set in one thread is not seen by another thread (POSIX
 * pthread_setspecific). */
#include "../conform.h"
static pthread_key_t k;
static void *fn(void *a) { return pthread_getspecific(k); }
int main(void)
{
	OK(pthread_key_create(&k, NULL));
	OK(pthread_setspecific(k, "main"));
	CHECK(join(spawn(fn, NULL)) == NULL);
	CHECK(strcmp(pthread_getspecific(k), "main") == 0);
	pass();
}
