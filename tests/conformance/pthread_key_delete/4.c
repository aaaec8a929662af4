/* pthread_key_delete may be called from a destructor (POSIX
 * pthread_key_delete: callable from destructor functions). */
#include "../conform.h"
static pthread_key_t k, other;
static int rc = -1;
static void d(void *v) { rc = pthread_key_delete(other); }
static void *fn(void *a) { pthread_setspecific(k, "x"); return NULL; }
int main(void)
{
	OK(pthread_key_create(&k, d));
	OK(pthread_key_create(&other, NULL));
	join(spawn(fn, NULL));
	CHECK(rc == 0);
	pass();
}
