/* Joining a thread that has already terminated returns at once with its
 * exit value (POSIX pthread_join). */
#include "../conform.h"
static sem_t ended;
static void *fn(void *a) { sem_post(&ended); return (void *)9; }
int main(void)
{
	void *v;
	sem_init(&ended, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ended);
	settle(20);
	OK(pthread_join(t, &v));
	CHECK(v == (void *)9);
	pass();
}
