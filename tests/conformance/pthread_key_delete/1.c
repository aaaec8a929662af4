/* pthread_key_delete of a valid key returns 0 (POSIX pthread_key_delete). */
#include "../conform.h"
int main(void)
{
	pthread_key_t k;
	OK(pthread_key_create(&k, NULL));
	OK(pthread_setspecific(k, "x"));
	OK(pthread_key_delete(k));
	pass();
}
