/* If the init routine is cancelled, the once control returns to its initial
 * state, so the next pthread_once call runs the routine again (POSIX
 * pthread_once). */
#include "../conform.h"
static pthread_once_t once = PTHREAD_ONCE_INIT;
static sem_t inside, never;
static int calls;
static void blocking_init(void) { calls++; sem_post(&inside); sem_wait(&never); }
static void quick_init(void) { calls++; }
static void *fn(void *a) { pthread_once(&once, blocking_init); return NULL; }
int main(void)
{
	sem_init(&inside, 0, 0);
	sem_init(&never, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&inside);
	OK(pthread_cancel(t));
	CHECK(join(t) == PTHREAD_CANCELED);
	OK(pthread_once(&once, quick_init));
	CHECK(calls == 2);
	pass();
}
