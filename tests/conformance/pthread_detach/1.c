/* pthread_detach of a joinable running thread returns 0 and the thread
 * keeps running to completion (POSIX pthread_detach). */
#include "../conform.h"
static sem_t go, finished;
static void *fn(void *a) { sem_wait_ok(&go); sem_post(&finished); return NULL; }
int main(void)
{
	sem_init(&go, 0, 0);
	sem_init(&finished, 0, 0);
	pthread_t t = spawn(fn, NULL);
	OK(pthread_detach(t));
	sem_post(&go);
	sem_wait_ok(&finished);
	pass();
}
