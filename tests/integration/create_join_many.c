/* 10,000 threads created and joined: most in batches of 100, one batch of
 * 1,000 alive at once, plus detached threads that report through a
 * mutex-protected counter. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int detached_done;

static void *square(void *arg)
{
	long v = (long)arg;
	return (void *)(v * v);
}

static void *detached(void *arg)
{
	pthread_mutex_lock(&mu);
	detached_done++;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	return arg;
}

static long batch(long first, int n)
{
	pthread_t *t = calloc((size_t)n, sizeof *t);
	long sum = 0;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, square, (void *)(first + i)) != 0) {
			fprintf(stderr, "pthread_create failed at %ld\n", first + i);
			exit(1);
		}
	for (int i = 0; i < n; i++) {
		void *r;
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	free(t);
	return sum;
}

int main(void)
{
	long sum = 0, n = 0;
	sum += batch(n, 1000);
	n += 1000;
	while (n < 10000) {
		sum += batch(n, 100);
		n += 100;
	}
	long want = 0;
	for (long i = 0; i < n; i++)
		want += i * i;

	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < 1000; i++) {
		pthread_t t;
		pthread_create(&t, &attr, detached, NULL);
	}
	pthread_mutex_lock(&mu);
	while (detached_done < 1000)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);

	printf("joined %ld threads, sum of returned squares %s\n", n, sum == want ? "correct" : "WRONG");
	printf("detached threads finished: %d\n", detached_done);
	return sum != want;
}
