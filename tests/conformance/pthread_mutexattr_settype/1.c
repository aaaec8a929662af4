/* gettype returns each type given to settype: NORMAL, ERRORCHECK, RECURSIVE,
 * DEFAULT (POSIX pthread_mutexattr_gettype). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	int types[] = {PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_ERRORCHECK, PTHREAD_MUTEX_RECURSIVE,
	               PTHREAD_MUTEX_DEFAULT};
	OK(pthread_mutexattr_init(&a));
	for (int i = 0; i < 4; i++) {
		int v = -1;
		OK(pthread_mutexattr_settype(&a, types[i]));
		OK(pthread_mutexattr_gettype(&a, &v));
		CHECK(v == types[i]);
	}
	pass();
}
