/* Detaching a live thread that is already detached fails with EINVAL
 * (POSIX pthread_detach, error conditions). */
#include "../conform.h"
static sem_t go, finished;
static void *fn(void *a) { sem_wait_ok(&go); sem_post(&finished); return NULL; }
int main(void)
{
	sem_init(&go, 0, 0);
	sem_init(&finished, 0, 0);
	pthread_t t = spawn(fn, NULL);
	OK(pthread_detach(t));
	EXPECT(pthread_detach(t), EINVAL);
	sem_post(&go);
	sem_wait_ok(&finished);
	pass();
}
