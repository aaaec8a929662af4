/* pthread_join waits for a thread blocked for a long time, returning only
 * after it is released (POSIX pthread_join). */
#include "../conform.h"
static sem_t go;
static volatile int released;
static void *waiter(void *a) { return join(*(pthread_t *)a); }
static void *fn(void *a) { sem_wait_ok(&go); return (void *)(intptr_t)released; }
int main(void)
{
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	pthread_t w = spawn(waiter, &t);
	settle(30);
	released = 1;
	sem_post(&go);
	CHECK(join(w) == (void *)1);
	pass();
}
