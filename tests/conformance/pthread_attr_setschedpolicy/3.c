/* A thread created with PTHREAD_EXPLICIT_SCHED and SCHED_OTHER runs under
 * SCHED_OTHER, as pthread_getschedparam reports (POSIX
 * pthread_attr_setschedpolicy, pthread_getschedparam). */
#include "../conform.h"
static void *fn(void *a)
{
	int pol = -1;
	struct sched_param sp;
	if (pthread_getschedparam(pthread_self(), &pol, &sp) != 0)
		return (void *)-1;
	return (void *)(intptr_t)pol;
}
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	struct sched_param sp = {.sched_priority = 0};
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED));
	OK(pthread_attr_setschedpolicy(&at, SCHED_OTHER));
	OK(pthread_attr_setschedparam(&at, &sp));
	OK(pthread_create(&t, &at, fn, NULL));
	CHECK(join(t) == (void *)(intptr_t)SCHED_OTHER);
	pass();
}
