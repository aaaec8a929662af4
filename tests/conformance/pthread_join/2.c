/* pthread_join suspends the caller until the target has terminated: all the
 * target did before exiting is visible after the join (POSIX pthread_join). */
#include "../conform.h"
static sem_t started;
static volatile int done;
static void *fn(void *a)
{
	sem_post(&started);
	settle(50);
	done = 1;
	return NULL;
}
int main(void)
{
	sem_init(&started, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&started);
	OK(pthread_join(t, NULL));
	CHECK(done == 1);
	pass();
}
