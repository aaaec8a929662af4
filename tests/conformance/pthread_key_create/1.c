/* A newly created key has the value NULL in the creating thread (POSIX
 * pthread_key_create). */
#include "../conform.h"
int main(void)
{
	pthread_key_t k;
	OK(pthread_key_create(&k, NULL));
	CHECK(pthread_getspecific(k) == NULL);
	pass();
}
