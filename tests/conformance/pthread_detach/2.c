/* Detaching a thread that has already terminated (but not been joined)
 * succeeds and reclaims it (POSIX pthread_detach). */
#include "../conform.h"
static sem_t ended;
static void *fn(void *a) { sem_post(&ended); return NULL; }
int main(void)
{
	sem_init(&ended, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ended);
	settle(20);
	OK(pthread_detach(t));
	pass();
}
