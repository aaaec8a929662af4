/* pthread_setschedprio works on another live thread (POSIX
 * pthread_setschedprio). */
#include "../conform.h"
static sem_t go;
static void *fn(void *a) { sem_wait_ok(&go); return NULL; }
int main(void)
{
	int pol;
	struct sched_param sp;
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	OK(pthread_getschedparam(t, &pol, &sp));
	OK(pthread_setschedprio(t, sp.sched_priority));
	sem_post(&go);
	join(t);
	pass();
}
