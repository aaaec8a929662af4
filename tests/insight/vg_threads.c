/* A small threaded program for valgrind memcheck under the shim: threads
 * created and joined, a mutex and a condition variable, malloc/free across
 * threads, thread-local storage.  Prints one deterministic line. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4
#define ROUNDS 50

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static char *slots[N];
static int produced;
static __thread int tls_counter;

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	long sum = 0;
	for (int r = 0; r < ROUNDS; r++) {
		char *buf = malloc(64);
		snprintf(buf, 64, "w%d-r%d", id, r);
		pthread_mutex_lock(&mu);
		while (slots[id] != NULL)
			pthread_cond_wait(&cv, &mu);
		slots[id] = buf;
		produced++;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		tls_counter++;
	}
	sum = tls_counter;
	return (void *)sum;
}

#pragma GCC diagnostic ignored "-Wuse-after-free" /* the point of it */
static void *use_after_free(void *arg)
{
	(void)arg;
	volatile char *p = malloc(32);
	p[0] = 'x';
	free((void *)p);
	return (void *)(long)p[0];
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "bug") == 0) {
		pthread_t b;
		pthread_create(&b, NULL, use_after_free, NULL);
		pthread_join(b, NULL);
	}
	pthread_t t[N];
	for (long i = 0; i < N; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			return 1;
	int consumed = 0;
	size_t bytes = 0;
	pthread_mutex_lock(&mu);
	while (consumed < N * ROUNDS) {
		int got = 0;
		for (int i = 0; i < N; i++) {
			if (slots[i]) {
				bytes += strlen(slots[i]);
				free(slots[i]);
				slots[i] = NULL;
				consumed++;
				got = 1;
			}
		}
		if (got)
			pthread_cond_broadcast(&cv);
		else
			pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	long total = 0;
	for (int i = 0; i < N; i++) {
		void *ret;
		pthread_join(t[i], &ret);
		total += (long)ret;
	}
	printf("consumed %d, tls total %ld, bytes %zu\n", consumed, total, bytes);
	return 0;
}
