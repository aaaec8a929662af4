/* pthread_getschedparam works on another live thread, and a default thread
 * has the policy of its creator (default inheritance on this system) (POSIX
 * pthread_getschedparam). */
#include "../conform.h"
static sem_t go;
static void *fn(void *a) { sem_wait_ok(&go); return NULL; }
int main(void)
{
	int mine, its = -1;
	struct sched_param msp, sp;
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	OK(pthread_getschedparam(pthread_self(), &mine, &msp));
	OK(pthread_getschedparam(t, &its, &sp));
	CHECK(its == mine && sp.sched_priority == msp.sched_priority);
	sem_post(&go);
	join(t);
	pass();
}
