/* pthread_equal returns zero for the IDs of two different threads (POSIX
 * pthread_equal). */
#include "../conform.h"
static sem_t go;
static void *fn(void *a) { sem_wait_ok(&go); return NULL; }
int main(void)
{
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	CHECK(pthread_equal(t, pthread_self()) == 0);
	CHECK(pthread_equal(pthread_self(), t) == 0);
	sem_post(&go);
	join(t);
	pass();
}
