/* pthread_kill with signal 0 sends nothing and returns 0 for a live thread
 * (POSIX pthread_kill: error checking only). */
#include "../conform.h"
static sem_t go;
static void *fn(void *a) { sem_wait_ok(&go); return NULL; }
int main(void)
{
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	OK(pthread_kill(t, 0));
	OK(pthread_kill(pthread_self(), 0));
	sem_post(&go);
	join(t);
	pass();
}
