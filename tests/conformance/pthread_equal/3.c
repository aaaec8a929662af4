/* The ID from pthread_create compares equal to the new thread's own
 * pthread_self, seen from the new thread (POSIX pthread_equal). */
#include "../conform.h"
static pthread_t created;
static sem_t stored;
static void *fn(void *a) { sem_wait_ok(&stored); return (void *)(intptr_t)(pthread_equal(created, pthread_self()) != 0); }
int main(void)
{
	sem_init(&stored, 0, 0);
	OK(pthread_create(&created, NULL, fn, NULL));
	sem_post(&stored);
	CHECK(join(created) == (void *)1);
	pass();
}
