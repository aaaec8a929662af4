/* A signal sent to a thread that sits in a blocking call ends the call
 * with EINTR (a handler without SA_RESTART; sleeps, poll, select and
 * epoll_wait are never restarted anyway), whatever happens around it.
 * Natively the thread is in the kernel all along.  Under the shim the call
 * may leave its wait and wait again without the program seeing it: a
 * sleep in the kernel wakes for another thread's timer, runs it, and
 * sleeps on; a poll is woken by an edge on its fd that is not the one it
 * waits for (here: the fd becoming writable as another thread drains what
 * it wrote).  A signal that lands in between still has to end the call,
 * though its handler then runs while the thread is not waiting.
 *
 * Each trial: the target enters the call with a 2 s timeout; main sends it
 * SIGUSR1 some milliseconds later (natively: once /proc shows it in the
 * system call), and the call must end with EINTR.  Meanwhile churn threads
 * sleep 100-300 us at a time and make the shared socket writable again
 * and again. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define TRIALS 100
#define SLEEPERS 3
#define IDLE 16

enum call { C_SLEEP, C_POLL, C_SELECT, C_EPOLL, NCALLS };
static const char *const call_name[NCALLS] = { "nanosleep", "poll", "select", "epoll_wait" };

static int sv[2]; /* the target waits for sv[0] to be readable; nothing is ever sent to it */
static int epfd;
static volatile int stop_churn;
static volatile sig_atomic_t handled;

/* The trial in progress, handed from main to the target. */
static pthread_mutex_t tm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tc = PTHREAD_COND_INITIALIZER;
static int trial_call = -1, trial_seq, done_seq, target_tid;
static pthread_t target_thread;
static volatile int entering;
static int result_eintr, result_other;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

static int wait_once(enum call c)
{
	switch (c) {
	case C_SLEEP: {
		struct timespec ts = { 2, 0 };
		return nanosleep(&ts, NULL);
	}
	case C_POLL: {
		struct pollfd p = { .fd = sv[0], .events = POLLIN };
		return poll(&p, 1, 2000);
	}
	case C_SELECT: {
		fd_set r;
		FD_ZERO(&r);
		FD_SET(sv[0], &r);
		struct timeval tv = { 2, 0 };
		return select(sv[0] + 1, &r, NULL, NULL, &tv);
	}
	case C_EPOLL: {
		struct epoll_event ev;
		return epoll_wait(epfd, &ev, 1, 2000);
	}
	default:
		return 0;
	}
}

static void *target(void *arg)
{
	(void)arg;
	target_tid = (int)syscall(SYS_gettid);
	for (;;) {
		pthread_mutex_lock(&tm);
		while (trial_seq == done_seq)
			pthread_cond_wait(&tc, &tm);
		int c = trial_call;
		pthread_mutex_unlock(&tm);
		if (c < 0)
			return NULL;
		entering = 1;
		int r = wait_once((enum call)c);
		int e = errno;
		entering = 0;
		pthread_mutex_lock(&tm);
		result_eintr = r < 0 && e == EINTR;
		result_other = r;
		done_seq = trial_seq;
		pthread_cond_broadcast(&tc);
		pthread_mutex_unlock(&tm);
	}
}

/* Timers that fire all the time: a sleep in the kernel is woken for them. */
static void *sleeper(void *arg)
{
	long us = 100 + 100 * (long)(intptr_t)arg;
	while (!stop_churn)
		usleep((useconds_t)us);
	return NULL;
}

/* Fills sv[0]'s send buffer a little and lets the drainer empty it: sv[0]
 * turns writable again, an edge on the fd the target polls for reading. */
static void *filler(void *arg)
{
	(void)arg;
	static char buf[16384];
	while (!stop_churn) {
		if (send(sv[0], buf, sizeof buf, MSG_DONTWAIT) < 0 && errno != EAGAIN)
			perror("send");
		usleep(200);
	}
	return NULL;
}

static void *drainer(void *arg)
{
	(void)arg;
	static char buf[65536];
	while (!stop_churn) {
		struct pollfd p = { .fd = sv[1], .events = POLLIN };
		if (poll(&p, 1, 50) > 0 && recv(sv[1], buf, sizeof buf, 0) < 0)
			perror("recv");
	}
	return NULL;
}

static int pipe_idle[2];

static void *idle_thread(void *arg)
{
	(void)arg;
	char c;
	if (read(pipe_idle[0], &c, 1) != 1)
		perror("idle read");
	return NULL;
}

/* One trial: 1 if the call ended with EINTR. */
static int trial(enum call c, unsigned *seed)
{
	pthread_mutex_lock(&tm);
	trial_call = c;
	trial_seq++;
	pthread_cond_broadcast(&tc);
	pthread_mutex_unlock(&tm);
	while (!entering)
		sched_yield();
	/* Into the call: natively seen in /proc (glibc's nanosleep and the
	 * others are one system call each); under the shim the call is the
	 * runtime's business, and a few ms is ample on an idle machine. */
	pause_us(3000 + rand_r(seed) % 5000);
	if (!under_shim())
		/* (after entering, the call it makes for the wait: glibc's
		 * differ across versions) */
		for (int i = 0; i < 2000 && !thread_in_syscall(target_tid); i++)
			pause_us(1000);
	pthread_kill(target_thread, SIGUSR1);
	pthread_mutex_lock(&tm);
	while (done_seq != trial_seq)
		pthread_cond_wait(&tc, &tm);
	int ok = result_eintr;
	pthread_mutex_unlock(&tm);
	return ok;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1; /* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 || pipe(pipe_idle) != 0)
		return perror("socketpair"), 1;
	int small = 32768;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
	epfd = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = sv[0] };
	epoll_ctl(epfd, EPOLL_CTL_ADD, sv[0], &ev);

	pthread_t idle[IDLE], churn[SLEEPERS + 2];
	for (int i = 0; i < IDLE; i++)
		pthread_create(&idle[i], NULL, idle_thread, NULL);
	pthread_create(&target_thread, NULL, target, NULL);
	for (int i = 0; i < SLEEPERS; i++)
		pthread_create(&churn[i], NULL, sleeper, (void *)(intptr_t)i);
	pthread_create(&churn[SLEEPERS], NULL, filler, NULL);
	pthread_create(&churn[SLEEPERS + 1], NULL, drainer, NULL);

	unsigned seed = 12345;
	const char *env = getenv("GMP_TEST_TRIALS");
	int trials = env ? atoi(env) : TRIALS;
	for (int c = 0; c < NCALLS; c++) {
		int ended = 0;
		for (int i = 0; i < trials; i++)
			ended += trial((enum call)c, &seed);
		char what[96];
		snprintf(what, sizeof what, "%s: a signal ends it in every trial", call_name[c]);
		if (ended != trials)
			fprintf(stderr, "%s: %d of %d trials ran to their timeout\n", call_name[c], trials - ended, trials);
		CHECK(ended == trials, what);
	}
	CHECK(handled == NCALLS * trials, "one handler run per signal");

	stop_churn = 1;
	for (int i = 0; i < SLEEPERS + 2; i++)
		pthread_join(churn[i], NULL);
	pthread_mutex_lock(&tm);
	trial_call = -1;
	trial_seq++;
	pthread_cond_broadcast(&tc);
	pthread_mutex_unlock(&tm);
	pthread_join(target_thread, NULL);
	/* The 16 readers and main: natively 17 kernel threads, under the
	 * shim fewer (the Ms that churn's kernel sleeps took stay, so not
	 * threads_are_gs's bound for a process whose threads all park). */
	int kt = kernel_threads();
	if (under_shim() ? kt >= IDLE + 1 : kt < IDLE + 1)
		fprintf(stderr, "%d kernel threads for %d threads\n", kt, IDLE + 1);
	CHECK(under_shim() ? kt < IDLE + 1 : kt >= IDLE + 1, "the idle readers are Gs (under the shim)");
	CHECK(made_as_gs(IDLE + SLEEPERS + 3), "every thread was made as a G (under the shim)");
	char bytes[IDLE];
	memset(bytes, 'x', sizeof bytes);
	if (write(pipe_idle[1], bytes, sizeof bytes) != IDLE)
		perror("write");
	for (int i = 0; i < IDLE; i++)
		pthread_join(idle[i], NULL);
	printf("%d failed\n", failures);
	return failures != 0;
}
