/* Every thread keeps its own __thread data, errno and identity across
 * thousands of switches (yields, mutex hand-offs, condvar waits). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define NTHREADS 64
#define ROUNDS 2000

static __thread long tls_id = -1;
static __thread char tls_buf[64] = "initial";
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long ticket;
static pthread_t selves[NTHREADS];
static int bad;

static void fail(const char *what, long id)
{
	fprintf(stderr, "thread %ld: %s\n", id, what);
	__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	if (tls_id != -1 || tls_buf[0] != 'i')
		fail("TLS not initialised from the image", id);
	tls_id = id;
	snprintf(tls_buf, sizeof tls_buf, "thread-%ld", id);
	selves[id] = pthread_self();
	for (int r = 0; r < ROUNDS; r++) {
		errno = (int)(id * 1000 + r % 1000);
		switch (r % 3) {
		case 0:
			sched_yield();
			break;
		case 1:
			pthread_mutex_lock(&mu);
			ticket++;
			pthread_mutex_unlock(&mu);
			break;
		case 2:
			pthread_mutex_lock(&mu);
			ticket++;
			pthread_cond_broadcast(&cv);
			if (ticket % 7 == 0) {
				struct timespec ts = deadline_in(CLOCK_REALTIME, 100000);
				pthread_cond_timedwait(&cv, &mu, &ts);
			}
			pthread_mutex_unlock(&mu);
			break;
		}
		if (errno != (int)(id * 1000 + r % 1000))
			fail("errno changed across a switch", id);
		if (tls_id != id)
			fail("__thread value changed across a switch", id);
		char want[64];
		snprintf(want, sizeof want, "thread-%ld", id);
		for (int i = 0; want[i]; i++)
			if (tls_buf[i] != want[i])
				fail("__thread buffer changed", id);
		if (!pthread_equal(pthread_self(), selves[id]))
			fail("pthread_self changed", id);
	}
	return &tls_id; /* the address of this thread's own variable */
}

int main(void)
{
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	void *addr[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], &addr[i]);
	int distinct_self = 1, distinct_tls = 1;
	for (int i = 0; i < NTHREADS; i++)
		for (int j = i + 1; j < NTHREADS; j++) {
			if (pthread_equal(selves[i], selves[j]))
				distinct_self = 0;
			if (addr[i] == addr[j])
				distinct_tls = 0;
		}
	if (tls_id != -1)
		fail("main's __thread value was touched", -1);
	printf("%d threads x %d switch points, %ld lock rounds\n", NTHREADS, ROUNDS, ticket);
	printf("pthread_self distinct: %s, __thread addresses distinct: %s\n", distinct_self ? "yes" : "no",
	       distinct_tls ? "yes" : "no");
	printf("identity errors: %s\n", bad ? "yes" : "none");
	return bad || !distinct_self || !distinct_tls;
}
