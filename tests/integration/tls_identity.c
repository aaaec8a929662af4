/* Every thread keeps its own __thread data, errno and identity across
 * thousands of switch points: yields, mutex hand-offs, short timed condvar
 * waits, and a rendezvous every BARRIER_EVERY rounds at which every thread
 * really blocks on a condvar until the last one arrives. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __x86_64__
#include <asm/prctl.h>
#endif

#include "check.h"

#define NTHREADS 64
#define ROUNDS 2000
#define BARRIER_EVERY 100

static __thread long tls_id = -1;                /* .tdata */
static __thread char tls_buf[64] = "initial";    /* .tdata */
static __thread unsigned tls_zero[256];          /* .tbss: must start zeroed */
static __thread pthread_t tls_self;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long ticket;

/* Rendezvous of all workers (mutex + condvar + generation). */
static pthread_mutex_t bmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t bcv = PTHREAD_COND_INITIALIZER;
static int b_waiting;
static unsigned long b_gen, b_waits;

static pthread_t selves[NTHREADS];
static int *errno_addr[NTHREADS];
static long *tls_addr[NTHREADS];
static int bad;

static void fail(const char *what, long id, int round)
{
	fprintf(stderr, "thread %ld round %d: %s\n", id, round, what);
	__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
}

static void rendezvous(void)
{
	pthread_mutex_lock(&bmu);
	unsigned long gen = b_gen;
	if (++b_waiting == NTHREADS) {
		b_waiting = 0;
		b_gen++;
		pthread_cond_broadcast(&bcv);
	} else {
		while (b_gen == gen) {
			pthread_cond_wait(&bcv, &bmu);
			b_waits++;
		}
	}
	pthread_mutex_unlock(&bmu);
}

static void check_mine(long id, int r, int want_errno)
{
	if (errno != want_errno)
		fail("errno changed across a switch", id, r);
	if (tls_id != id)
		fail("__thread long changed across a switch", id, r);
	char want[64];
	snprintf(want, sizeof want, "thread-%ld", id);
	for (int i = 0; want[i] || tls_buf[i]; i++)
		if (tls_buf[i] != want[i]) {
			fail("__thread buffer changed", id, r);
			break;
		}
	for (int i = 0; i < 256; i++)
		if (tls_zero[i] != (unsigned)(id * 256 + i)) {
			fail("__thread array changed", id, r);
			break;
		}
	if (!pthread_equal(pthread_self(), selves[id]) || !pthread_equal(tls_self, pthread_self()))
		fail("pthread_self changed", id, r);
	if (&errno != errno_addr[id] || &tls_id != tls_addr[id])
		fail("address of errno or of a __thread variable changed", id, r);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	if (tls_id != -1 || strcmp(tls_buf, "initial") != 0)
		fail("__thread data not initialised from the TLS image", id, -1);
	for (int i = 0; i < 256; i++)
		if (tls_zero[i] != 0) {
			fail("__thread .tbss data not zero at start", id, -1);
			break;
		}
	if (errno != 0)
		fail("errno not zero in a new thread", id, -1);
	tls_id = id;
	snprintf(tls_buf, sizeof tls_buf, "thread-%ld", id);
	for (int i = 0; i < 256; i++)
		tls_zero[i] = (unsigned)(id * 256 + i);
	tls_self = pthread_self();
	selves[id] = tls_self;
	errno_addr[id] = &errno;
	tls_addr[id] = &tls_id;
	if (!pthread_equal(pthread_self(), pthread_self()))
		fail("pthread_equal(self, self) is false", id, -1);

	rendezvous(); /* everyone has published its identity */
	for (int r = 0; r < ROUNDS; r++) {
		int want = (int)(id * 10000 + r);
		errno = want;
		switch (r % 4) {
		case 0:
			sched_yield();
#ifdef __x86_64__
			/* A program that writes its own FS base back (as some
			 * language runtimes do) stays on its own TLS. */
			if (r % 8 == 0) {
				unsigned long fs = 0;
				if (syscall(SYS_arch_prctl, ARCH_GET_FS, &fs) != 0 || fs == 0 ||
				    syscall(SYS_arch_prctl, ARCH_SET_FS, fs) != 0)
					fail("arch_prctl: reading or writing back the FS base failed", id, r);
			}
#endif
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
		case 3:
			if (r % BARRIER_EVERY == 3)
				rendezvous();
			else
				sched_yield();
			break;
		}
		check_mine(id, r, want);
		/* Another thread's identity is never ours. */
		long other = (id + 1 + r % (NTHREADS - 1)) % NTHREADS;
		if (pthread_equal(pthread_self(), selves[other]))
			fail("pthread_equal says another thread is us", id, r);
	}
	return &tls_id; /* the address of this thread's own variable */
}

int main(void)
{
	pthread_t t[NTHREADS];
	pthread_t main_self = pthread_self();
	tls_buf[0] = 'M'; /* main's copy only */
	errno = 4242;
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	void *addr[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], &addr[i]);
	int distinct_self = 1, distinct_tls = 1, handles_match = 1, not_main = 1;
	for (int i = 0; i < NTHREADS; i++) {
		handles_match &= pthread_equal(t[i], selves[i]) != 0 && addr[i] == tls_addr[i];
		not_main &= !pthread_equal(selves[i], main_self) && errno_addr[i] != &errno &&
			    tls_addr[i] != &tls_id;
		for (int j = i + 1; j < NTHREADS; j++) {
			if (pthread_equal(selves[i], selves[j]))
				distinct_self = 0;
			if (addr[i] == addr[j] || errno_addr[i] == errno_addr[j])
				distinct_tls = 0;
		}
	}
	CHECK(distinct_self, "pthread_self differs between threads");
	CHECK(handles_match, "pthread_create handle equals the thread's pthread_self");
	CHECK(not_main, "no thread shares main's identity, errno or __thread data");
	CHECK(distinct_tls, "errno and __thread addresses differ between threads");
	CHECK(tls_id == -1 && tls_buf[0] == 'M' && strcmp(tls_buf + 1, "nitial") == 0,
	      "main's __thread data untouched by the workers");
	CHECK(errno == 4242, "main's errno untouched by the workers");
	CHECK(pthread_equal(main_self, pthread_self()), "main's pthread_self stable across joins");
	CHECK(ticket == (long)NTHREADS * (ROUNDS / 2), "every mutex round counted");
	CHECK(!bad, "every thread saw only its own TLS and errno at every switch point");
	printf("%d threads x %d switch points, %d rendezvous\n", NTHREADS, ROUNDS, ROUNDS / BARRIER_EVERY + 1);
	if (b_waits == 0)
		fprintf(stderr, "note: no thread ever waited at a rendezvous\n");
	return failures != 0;
}
