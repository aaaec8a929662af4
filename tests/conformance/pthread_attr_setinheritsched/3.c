/* With PTHREAD_INHERIT_SCHED the new thread takes the creator's policy and
 * priority, ignoring the attribute object's own (POSIX
 * pthread_attr_setinheritsched). */
#include "../conform.h"
static void *fn(void *a)
{
	int pol = -1;
	struct sched_param sp;
	if (pthread_getschedparam(pthread_self(), &pol, &sp) != 0)
		return (void *)-1;
	return (void *)(intptr_t)(pol * 1000 + sp.sched_priority);
}
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	int mypol;
	struct sched_param my, sp = {.sched_priority = 1};
	OK(pthread_getschedparam(pthread_self(), &mypol, &my));
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setinheritsched(&at, PTHREAD_INHERIT_SCHED));
	OK(pthread_attr_setschedpolicy(&at, SCHED_FIFO));
	OK(pthread_attr_setschedparam(&at, &sp));
	OK(pthread_create(&t, &at, fn, NULL));
	CHECK(join(t) == (void *)(intptr_t)(mypol * 1000 + my.sched_priority));
	pass();
}
