/* getschedpolicy returns the policy given to setschedpolicy, for SCHED_FIFO,
 * SCHED_RR and SCHED_OTHER (POSIX pthread_attr_getschedpolicy). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int pols[] = {SCHED_FIFO, SCHED_RR, SCHED_OTHER}, p;
	OK(pthread_attr_init(&at));
	for (int i = 0; i < 3; i++) {
		OK(pthread_attr_setschedpolicy(&at, pols[i]));
		OK(pthread_attr_getschedpolicy(&at, &p));
		CHECK(p == pols[i]);
	}
	pass();
}
