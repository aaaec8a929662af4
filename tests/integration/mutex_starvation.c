/* Starvation: two threads re-lock a mutex in a tight loop while a third
 * needs it 200 times with a pause between.  Without a hand-off the third
 * thread can lose the race indefinitely; it must get all its turns. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static volatile int done;
static long hammer_rounds;

static void *hammer(void *arg)
{
	long n = 0;
	while (!done) {
		pthread_mutex_lock(&mu);
		n++;
		for (volatile int i = 0; i < 50; i++)
			;
		pthread_mutex_unlock(&mu);
	}
	__atomic_add_fetch(&hammer_rounds, n, __ATOMIC_RELAXED);
	return arg;
}

static void *needy(void *arg)
{
	(void)arg;
	int got = 0;
	for (int i = 0; i < 200; i++) {
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&mu);
		got++;
		pthread_mutex_unlock(&mu);
	}
	done = 1;
	return (void *)(long)got;
}

int main(void)
{
	pthread_t h[2], n;
	for (int i = 0; i < 2; i++)
		pthread_create(&h[i], NULL, hammer, NULL);
	pthread_create(&n, NULL, needy, NULL);
	void *got;
	pthread_join(n, &got);
	for (int i = 0; i < 2; i++)
		pthread_join(h[i], NULL);
	printf("the needy thread got the mutex %ld of 200 times; the hammers kept going: %s\n", (long)got,
	       hammer_rounds > 0 ? "yes" : "no");
	return (long)got != 200;
}
