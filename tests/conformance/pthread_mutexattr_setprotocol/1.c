/* getprotocol returns each protocol given to setprotocol: PTHREAD_PRIO_NONE,
 * PTHREAD_PRIO_INHERIT, PTHREAD_PRIO_PROTECT (POSIX
 * pthread_mutexattr_getprotocol). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	int p[] = {PTHREAD_PRIO_INHERIT, PTHREAD_PRIO_PROTECT, PTHREAD_PRIO_NONE};
	OK(pthread_mutexattr_init(&a));
	for (int i = 0; i < 3; i++) {
		int v = -1;
		OK(pthread_mutexattr_setprotocol(&a, p[i]));
		OK(pthread_mutexattr_getprotocol(&a, &v));
		CHECK(v == p[i]);
	}
	pass();
}
