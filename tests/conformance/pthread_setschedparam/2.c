/* pthread_setschedparam on another thread changes that thread's policy as
 * the thread itself then sees it (POSIX pthread_setschedparam). */
#include "../conform.h"
static sem_t set;
static int seen = -1;
static void *fn(void *a)
{
	struct sched_param sp;
	sem_wait_ok(&set);
	pthread_getschedparam(pthread_self(), &seen, &sp);
	return NULL;
}
int main(void)
{
	struct sched_param sp = {.sched_priority = 0};
	sem_init(&set, 0, 0);
	pthread_t t = spawn(fn, NULL);
	OK(pthread_setschedparam(t, SCHED_BATCH, &sp));
	sem_post(&set);
	join(t);
	CHECK(seen == SCHED_BATCH);
	pass();
}
