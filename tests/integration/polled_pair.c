/* Two threads woken by the same byte stream at once, one of which then
 * waits for the other without ever blocking (a spin barrier), as threads
 * written for the kernel's scheduler may.  Natively each gets a CPU.
 * Under the shim both are readied by one poll of the pipe: the poller's
 * M runs one and, while its recent requests were short, keeps the other
 * on its own P rather than wake an idle M; that one must still get the
 * idle P once it is due, even though the spinner never yields (the test
 * runs with preemption off: GMP_TIMESLICE=0, at 2 Ps).  Most rounds are
 * short (each thread reads its byte and answers), which brings the
 * runtime's estimate of a request (an average) back down after a
 * barrier; every sixteenth round is a barrier. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 320
#define BARRIER_EVERY 16
#define SPIN_LIMIT_NS 10000000000LL /* a barrier never met: report, don't hang */

static int work[2], done[2];
static unsigned arrived; /* barrier rounds: each thread adds one */
static int stuck;

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *reader(void *arg)
{
	(void)arg;
	unsigned barriers = 0;
	for (;;) {
		char c;
		if (read(work[0], &c, 1) != 1 || c == 'q')
			return NULL;
		if (c == 'b') {
			/* Both must be here: no call that could block, no yield. */
			barriers++;
			__atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL);
			long long end = now_ns() + SPIN_LIMIT_NS;
			while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < 2 * barriers) {
				if (now_ns() > end) {
					__atomic_store_n(&stuck, 1, __ATOMIC_RELEASE);
					break;
				}
			}
		}
		if (write(done[1], &c, 1) != 1)
			return NULL;
	}
}

int main(void)
{
	CHECK(pipe(work) == 0 && pipe(done) == 0, "pipes made");
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, reader, NULL);
	int answered = 0;
	for (int r = 0; r < ROUNDS && !__atomic_load_n(&stuck, __ATOMIC_ACQUIRE); r++) {
		/* Let both readers block in their read before the bytes come,
		 * so that one readiness wakes the two together. */
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
		const char *two = r % BARRIER_EVERY == BARRIER_EVERY - 1 ? "bb" : "ss";
		if (write(work[1], two, 2) != 2)
			break;
		char c[2];
		for (int k = 0; k < 2; k++)
			answered += read(done[0], &c[k], 1) == 1;
	}
	CHECK(!__atomic_load_n(&stuck, __ATOMIC_ACQUIRE),
	      "every barrier met: a thread woken with a spinning one got a CPU of its own");
	CHECK(answered == 2 * ROUNDS, "both threads answered every round");
	if (write(work[1], "qq", 2) != 2)
		return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	/* Proof that the case was made: a thread kept for the poller's M
	 * that had to be handed to another when its partner did not come. */
	int kept = 1;
	if (under_shim()) {
		struct gmpshim_stats st;
		kept = gmpshim_stats(&st) == 0 && st.size >= sizeof st && st.polled_kept_woken > 0;
	}
	CHECK(kept, "under the shim, a thread kept for the poller got another M");
	return failures != 0;
}
