/* A created thread asking for its own parameters sees the same values as
 * its creator asking for them (POSIX pthread_getschedparam). */
#include "../conform.h"
static int inpol = -1, inprio = -1;
static sem_t asked, go;
static void *fn(void *a)
{
	struct sched_param sp;
	if (pthread_getschedparam(pthread_self(), &inpol, &sp) == 0)
		inprio = sp.sched_priority;
	sem_post(&asked);
	sem_wait_ok(&go);
	return NULL;
}
int main(void)
{
	int pol;
	struct sched_param sp;
	sem_init(&asked, 0, 0);
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&asked);
	OK(pthread_getschedparam(t, &pol, &sp));
	CHECK(pol == inpol && sp.sched_priority == inprio);
	sem_post(&go);
	join(t);
	pass();
}
