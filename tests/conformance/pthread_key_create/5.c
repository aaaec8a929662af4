/* Before a destructor is called, the key's value is set to NULL in the
 * exiting thread (POSIX pthread_key_create). */
#include "../conform.h"
static pthread_key_t k;
static void *during = (void *)1;
static void d(void *v) { during = pthread_getspecific(k); }
static void *fn(void *a) { pthread_setspecific(k, "x"); return NULL; }
int main(void)
{
	OK(pthread_key_create(&k, d));
	join(spawn(fn, NULL));
	CHECK(during == NULL);
	pass();
}
