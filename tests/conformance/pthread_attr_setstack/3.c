/* setstack with a size below PTHREAD_STACK_MIN fails with EINVAL (POSIX
 * pthread_attr_setstack). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	void *mem = aligned_alloc(4096, 1 << 16);
	OK(pthread_attr_init(&at));
	EXPECT(pthread_attr_setstack(&at, mem, PTHREAD_STACK_MIN - 1), EINVAL);
	pass();
}
