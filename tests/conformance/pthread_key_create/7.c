/* A process can create at least _POSIX_THREAD_KEYS_MAX (128) keys, all
 * distinct and each holding its own value (POSIX pthread_key_create,
 * limits.h). */
#include "../conform.h"
int main(void)
{
	static pthread_key_t k[_POSIX_THREAD_KEYS_MAX];
	static int vals[_POSIX_THREAD_KEYS_MAX];
	CHECK(PTHREAD_KEYS_MAX >= _POSIX_THREAD_KEYS_MAX);
	for (int i = 0; i < _POSIX_THREAD_KEYS_MAX; i++)
		OK(pthread_key_create(&k[i], NULL));
	for (int i = 0; i < _POSIX_THREAD_KEYS_MAX; i++)
		OK(pthread_setspecific(k[i], &vals[i]));
	for (int i = 0; i < _POSIX_THREAD_KEYS_MAX; i++)
		CHECK(pthread_getspecific(k[i]) == &vals[i]);
	pass();
}
