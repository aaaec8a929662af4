/* A signal sent to the process goes to the main thread when it takes it
 * (the kernel's preference), with the sender's siginfo, and ends the wait
 * main is blocked in as natively: select, nanosleep, a timed semaphore
 * wait and a read get EINTR; a condition wait does not fail but its
 * handler runs on main.  The sender is another thread that blocks the
 * signal, while a third keeps a CPU busy. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static pthread_t main_thread;
static volatile int hits, on_main, from_us, user_code;
static volatile int stop;

static void on_int(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	hits++;
	on_main = pthread_equal(pthread_self(), main_thread);
	from_us = si->si_pid == getpid();
	user_code = si->si_code == SI_USER;
}

/* Sends SIGINT to the process until main reports its wait is over. */
static volatile int waiting;

static void *sender(void *arg)
{
	(void)arg;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	while (!stop) {
		struct timespec ts = { 0, 20000000 };
		nanosleep(&ts, NULL);
		if (waiting)
			kill(getpid(), SIGINT);
	}
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	while (!stop)
		;
	return NULL;
}

static void report(const char *what, int eintr)
{
	char line[120];
	snprintf(line, sizeof line, "%s: %s, handler on main with SI_USER", what, eintr ? "EINTR" : "no EINTR");
	CHECK(hits >= 1 && on_main && from_us && user_code, line);
	hits = 0;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	main_thread = pthread_self();
	handle_info(SIGINT, on_int, 0);
	pthread_t t[2];
	pthread_create(&t[0], NULL, sender, NULL);
	pthread_create(&t[1], NULL, spinner, NULL);

	waiting = 1;
	struct timeval tv = { 30, 0 };
	int r = select(0, NULL, NULL, NULL, &tv);
	waiting = 0;
	report("select", r == -1 && errno == EINTR);

	waiting = 1;
	struct timespec ts = { 30, 0 };
	r = nanosleep(&ts, &ts);
	waiting = 0;
	report("nanosleep", r == -1 && errno == EINTR);

	sem_t sem;
	sem_init(&sem, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += 30;
	waiting = 1;
	r = sem_clockwait(&sem, CLOCK_MONOTONIC, &ts);
	waiting = 0;
	report("sem_clockwait", r == -1 && errno == EINTR);

	int p[2];
	pipe(p);
	char c;
	waiting = 1;
	r = (int)read(p[0], &c, 1);
	waiting = 0;
	report("read on a pipe", r == -1 && errno == EINTR);

	/* A condition wait never fails with EINTR: the handler runs, the
	 * wait goes on until signalled (here: by its timeout). */
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	pthread_mutex_lock(&mu);
	waiting = 1;
	while (hits == 0) {
		ts = deadline_in(CLOCK_REALTIME, 50000000);
		r = pthread_cond_timedwait(&cv, &mu, &ts);
		if (r != 0 && r != ETIMEDOUT)
			break;
	}
	waiting = 0;
	pthread_mutex_unlock(&mu);
	report("pthread_cond_timedwait", r == EINTR);

	stop = 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return failures != 0;
}
