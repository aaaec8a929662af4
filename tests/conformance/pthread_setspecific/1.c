/* getspecific returns the value most recently set by setspecific in the
 * calling thread (POSIX pthread_getspecific). */
#include "../conform.h"
int main(void)
{
	pthread_key_t k;
	int a, b;
	OK(pthread_key_create(&k, NULL));
	OK(pthread_setspecific(k, &a));
	CHECK(pthread_getspecific(k) == &a);
	OK(pthread_setspecific(k, &b));
	CHECK(pthread_getspecific(k) == &b);
	OK(pthread_setspecific(k, NULL));
	CHECK(pthread_getspecific(k) == NULL);
	pass();
}
