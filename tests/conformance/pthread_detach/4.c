/* A thread may detach itself and then run on (POSIX pthread_detach). */
#include "../conform.h"
static sem_t finished;
static int rc = -1;
static void *fn(void *a) { rc = pthread_detach(pthread_self()); sem_post(&finished); return NULL; }
int main(void)
{
	sem_init(&finished, 0, 0);
	spawn(fn, NULL);
	sem_wait_ok(&finished);
	CHECK(rc == 0);
	pass();
}
