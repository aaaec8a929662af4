/* A program error that faults inside the shim: pthread_mutex_lock on a
 * wild pointer (NPTL would fault as well).  One thread is parked in a
 * condition wait so the dump has a second G to show. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

__attribute__((noinline)) void *parked_in_cond(void *arg)
{
	pthread_mutex_lock(&mu);
	for (;;)
		pthread_cond_wait(&cv, &mu);
	return arg;
}

__attribute__((noinline)) void lock_wild_pointer(void)
{
	pthread_mutex_lock((pthread_mutex_t *)(uintptr_t)16);
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, parked_in_cond, NULL);
	usleep(100000);
	fprintf(stderr, "about to fault\n");
	lock_wild_pointer();
	return 0;
}
