/* After deletion, keys can be created again and start out NULL (POSIX
 * pthread_key_delete, pthread_key_create). */
#include "../conform.h"
int main(void)
{
	for (int i = 0; i < 1000; i++) {
		pthread_key_t k;
		OK(pthread_key_create(&k, NULL));
		CHECK(pthread_getspecific(k) == NULL);
		OK(pthread_setspecific(k, &i));
		OK(pthread_key_delete(k));
	}
	pass();
}
