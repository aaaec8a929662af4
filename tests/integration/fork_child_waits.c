/* A forked child that goes on without exec: it waits for a signal parked
 * in select, makes threads that hand a token round, and waits for its
 * own child.  Under the shim the child's runtime threads (sysmon, the
 * template thread) start only once it needs them (shim/fork.c): the first
 * park, thread or kernel wait, not at the fork.  Each child has 10 s
 * (alarm) and reports by its exit status. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define NT 4
#define ROUNDS 2000

static volatile sig_atomic_t got;

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

/* Parked in select until the parent's SIGUSR1 ends it with EINTR. */
static int wait_for_signal(void)
{
	struct timeval tv = { 8, 0 };
	int r = select(0, NULL, NULL, NULL, &tv);
	return r < 0 && errno == EINTR && got ? 0 : 1;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn, passes;

static void *passer(void *arg)
{
	int me = (int)(long)arg;
	pthread_mutex_lock(&mu);
	while (passes < ROUNDS) {
		while (turn != me && passes < ROUNDS)
			pthread_cond_wait(&cv, &mu);
		if (passes < ROUNDS) {
			passes++;
			turn = (me + 1) % NT;
			pthread_cond_broadcast(&cv);
		}
	}
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int pass_token(void)
{
	pthread_t t[NT];
	for (long i = 0; i < NT; i++)
		if (pthread_create(&t[i], NULL, passer, (void *)i) != 0)
			return 1;
	for (int i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	return passes == ROUNDS ? 0 : 1;
}

/* Its own child exits after a moment; the wait for it is a kernel wait. */
static int wait_grandchild(void)
{
	pid_t g = fork();
	if (g == 0) {
		usleep(20000);
		_exit(7);
	}
	int st;
	return waitpid(g, &st, 0) == g && WIFEXITED(st) && WEXITSTATUS(st) == 7 ? 0 : 1;
}

static pid_t start(int (*body)(void), int *ready)
{
	pid_t c = fork();
	if (c == 0) {
		alarm(10);
		char b = 1;
		if (write(ready[1], &b, 1) != 1)
			_exit(3);
		_exit(body());
	}
	char b;
	if (read(ready[0], &b, 1) != 1)
		return -1;
	return c;
}

static int finished(pid_t c)
{
	int st;
	return waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The parent's signal comes from a thread of its own. */
static void *kicker(void *arg)
{
	usleep(100000); /* the child is parked in its select by then */
	kill(*(pid_t *)arg, SIGUSR1);
	return NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	int ready[2];
	if (pipe(ready) != 0)
		return 1;

	pid_t c = start(wait_for_signal, ready);
	pthread_t k;
	pthread_create(&k, NULL, kicker, &c);
	pthread_join(k, NULL);
	CHECK(finished(c), "a child parked in select takes the parent's signal (EINTR)");

	c = start(pass_token, ready);
	CHECK(finished(c), "a child's threads hand a token round 2000 times");

	c = start(wait_grandchild, ready);
	CHECK(finished(c), "a child waits for its own child");

	CHECK(made_as_gs(1), "the parent's thread was made as a G under the shim");
	return failures != 0;
}
