/* A successful pthread_setschedparam on a created thread is reported back by
 * pthread_getschedparam on that thread (POSIX pthread_setschedparam). */
#include "../conform.h"
static sem_t go;
static void *fn(void *a) { sem_wait_ok(&go); return NULL; }
int main(void)
{
	struct sched_param sp = {.sched_priority = 0}, out;
	int pol = -1;
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	OK(pthread_setschedparam(t, SCHED_BATCH, &sp));
	OK(pthread_getschedparam(t, &pol, &out));
	CHECK(pol == SCHED_BATCH && out.sched_priority == 0);
	OK(pthread_setschedparam(t, SCHED_OTHER, &sp));
	OK(pthread_getschedparam(t, &pol, &out));
	CHECK(pol == SCHED_OTHER);
	sem_post(&go);
	join(t);
	pass();
}
