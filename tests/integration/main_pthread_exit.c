/* main calls pthread_exit: the process lives on until the last thread
 * ends, and then exits with status 0 after running atexit handlers once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NTHREADS 8

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int remaining = NTHREADS;
static long total;

static void at_exit(void)
{
	printf("atexit handler ran, total %ld\n", total);
	fflush(stdout);
}

static void *worker(void *arg)
{
	long sum = 0;
	for (long i = 0; i < 100000; i++)
		sum += i % ((long)arg + 2);
	struct timespec ts = { 0, 2000000 };
	nanosleep(&ts, NULL); /* outlive main */
	pthread_mutex_lock(&mu);
	total += sum;
	if (--remaining == 0)
		printf("last thread done\n");
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(void)
{
	atexit(at_exit);
	for (long i = 0; i < NTHREADS; i++) {
		pthread_t t;
		pthread_create(&t, NULL, worker, (void *)i);
		pthread_detach(t);
	}
	printf("main exits first\n");
	fflush(stdout);
	pthread_exit(NULL);
}
