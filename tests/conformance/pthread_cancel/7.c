/* A thread blocked in pthread_join (a cancellation point) is cancelled, and
 * the thread it was joining stays joinable (POSIX pthread_join). */
#include "../conform.h"
static sem_t go, entering;
static pthread_t target;
static void *victim(void *a) { sem_wait_ok(&go); return (void *)4; }
static void *joiner(void *a) { sem_post(&entering); pthread_join(target, NULL); return (void *)1; }
int main(void)
{
	sem_init(&go, 0, 0);
	sem_init(&entering, 0, 0);
	target = spawn(victim, NULL);
	pthread_t j = spawn(joiner, NULL);
	sem_wait_ok(&entering);
	settle(20);
	OK(pthread_cancel(j));
	CHECK(join(j) == PTHREAD_CANCELED);
	sem_post(&go);
	CHECK(join(target) == (void *)4);
	pass();
}
