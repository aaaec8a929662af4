/* Creating keys past the limit fails with EAGAIN rather than misbehaving
 * (POSIX pthread_key_create, error conditions). */
#include "../conform.h"
int main(void)
{
	pthread_key_t k;
	int r = 0, n = 0;
	while (n < 100000 && (r = pthread_key_create(&k, NULL)) == 0)
		n++;
	CHECK(n >= _POSIX_THREAD_KEYS_MAX);
	EXPECT(r, EAGAIN);
	pass();
}
