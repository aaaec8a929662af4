/* A cancelled detached thread is reclaimed like any other: cancelling many
 * detached blocked threads leaves the process able to create more (POSIX
 * pthread_cancel, pthread_detach). */
#include "../conform.h"
static sem_t never, entering;
static void *fn(void *a) { sem_post(&entering); sem_wait(&never); return NULL; }
int main(void)
{
	sem_init(&never, 0, 0);
	sem_init(&entering, 0, 0);
	for (int i = 0; i < 200; i++) {
		pthread_t t = spawn(fn, NULL);
		OK(pthread_detach(t));
		sem_wait_ok(&entering);
		OK(pthread_cancel(t));
	}
	pass();
}
