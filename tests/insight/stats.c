/* gmpshim.h from a program: natively gmpshim_stats() reports no shim;
 * under the shim the counters reflect what the program did (8 threads
 * created, condition-variable ping-pong that parks each side, joins).
 * usage: stats native|shim */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "gmpshim.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn;

static void *pingpong(void *arg)
{
	int me = (int)(long)arg;
	for (int i = 0; i < 200; i++) {
		pthread_mutex_lock(&mu);
		while (turn != me)
			pthread_cond_wait(&cv, &mu);
		turn = !me;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

static int reason_index(const char *name)
{
	for (int i = 1; i < GMPSHIM_NWAIT; i++) {
		const char *s = gmpshim_wait_reason(i);
		if (s && strcmp(s, name) == 0)
			return i;
	}
	return -1;
}

int main(int argc, char **argv)
{
	int shim = argc > 1 && strcmp(argv[1], "shim") == 0;
	struct gmpshim_stats before, after;
	int r = gmpshim_stats(&before);
	if (!shim) {
		printf("%s\n", r == -1 && gmpshim_wait_reason(1) == NULL ? "native: no shim" : "native: FAIL");
		return r == -1 ? 0 : 1;
	}
	if (r != 0 || before.size != sizeof before) {
		printf("FAIL: gmpshim_stats %d size %u\n", r, before.size);
		return 1;
	}
	pthread_t t[8];
	for (int i = 0; i < 6; i++)
		pthread_create(&t[i], NULL, nothing, NULL);
	pthread_create(&t[6], NULL, pingpong, (void *)0L);
	pthread_create(&t[7], NULL, pingpong, (void *)1L);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	gmpshim_stats(&after);
	int cond = reason_index("cond wait"), join = reason_index("join");
	int fail = 0;
#define CHECK(cond_, what)                                                       \
	do {                                                                     \
		if (!(cond_)) {                                                  \
			printf("FAIL: %s\n", what);                              \
			fail = 1;                                                \
		}                                                                \
	} while (0)
	CHECK(after.gomaxprocs >= 1, "gomaxprocs");
	CHECK(after.threads_created - before.threads_created == 8, "8 threads created");
	CHECK(after.switches - before.switches >= 8, "at least a switch per new thread");
	CHECK(cond > 0 && join > 0, "wait reason names");
	/* One side must park at least once per round it waits for the other. */
	CHECK(cond > 0 && after.park[cond] - before.park[cond] >= 100, "cond parks");
	CHECK(cond > 0 && after.unpark[cond] - before.unpark[cond] == after.park[cond] - before.park[cond],
	      "every cond park resumed");
	CHECK(join > 0 && after.park[join] >= after.unpark[join], "join parks");
	printf("%s\n", fail ? "shim: FAIL" : "shim: counters ok");
	return fail;
}
