#define _GNU_SOURCE
/* Signals are per thread: each thread has its own mask, pthread_kill
 * reaches exactly the thread it names (running, runnable or blocked),
 * blocked waits end or go on as POSIX says, a sigwait thread receives
 * what the process is sent, and each thread has its own alternate stack.
 * Meant to run with one P too, where every thread shares one OS thread. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static pthread_t target;        /* the thread a test expects the handler on */
static volatile int hits, wrong;
static volatile int blocked_in_handler; /* the handler ran with its signal blocked */

static void on_usr1(int sig)
{
	sigset_t now;
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	blocked_in_handler = sigismember(&now, SIGUSR1);
	if (!pthread_equal(pthread_self(), target))
		wrong++;
	hits++;
	(void)sig;
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void ms(int n)
{
	struct timespec ts = { n / 1000, (n % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void set_one(sigset_t *s, int sig)
{
	sigemptyset(s);
	sigaddset(s, sig);
}

/* --- a blocked signal stays pending on its thread --- */

static volatile int stage;

static void *masked(void *arg)
{
	(void)arg;
	sigset_t s, p;
	set_one(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	stage = 1;
	while (stage != 2)
		ms(1);
	sigpending(&p);
	int pending = sigismember(&p, SIGUSR1), before = hits;
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	/* Delivered by the time pthread_sigmask returns, to this thread. */
	return (void *)(intptr_t)(pending && before == 0 && hits == 1);
}

static void test_masked(void)
{
	hits = wrong = 0;
	pthread_create(&target, NULL, masked, NULL);
	while (stage != 1)
		ms(1);
	pthread_kill(target, SIGUSR1);
	ms(20);
	int early = hits;
	stage = 2;
	void *ok;
	pthread_join(target, &ok);
	CHECK(early == 0 && ok && wrong == 0, "blocked signal stays pending, delivered on unblock");
	CHECK(blocked_in_handler, "handler runs with its own signal blocked");
}

/* --- a running thread --- */

static void *spinner(void *arg)
{
	(void)arg;
	while (hits == 0)
		;
	return NULL;
}

static void test_running(void)
{
	hits = wrong = 0;
	pthread_create(&target, NULL, spinner, NULL);
	ms(5);
	pthread_kill(target, SIGUSR1);
	pthread_join(target, NULL);
	CHECK(hits == 1 && wrong == 0, "pthread_kill reaches a thread spinning in its own code");
}

/* --- a thread that has not run yet --- */

static void test_runnable(void)
{
	hits = wrong = 0;
	/* It waits for the signal: natively it may otherwise exit first, and
	 * glibc sends nothing to an exited thread. */
	pthread_create(&target, NULL, spinner, NULL);
	pthread_kill(target, SIGUSR1); /* at one P it has not started */
	pthread_join(target, NULL);
	CHECK(hits == 1 && wrong == 0, "pthread_kill right after pthread_create: delivered to it once");
}

/* --- blocked waits --- */

static sem_t sem;
static volatile int result_err = -1, done;
static int pipefd[2];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile int ready, cond_eintr;

static void *sem_waiter(void *arg)
{
	(void)arg;
	int r = sem_wait(&sem);
	result_err = r < 0 ? errno : 0;
	done = 1;
	return NULL;
}

static void *pipe_reader(void *arg)
{
	(void)arg;
	char c;
	ssize_t n = read(pipefd[0], &c, 1);
	result_err = n < 0 ? errno : (int)n + 1000;
	done = 1;
	return NULL;
}

static void *cond_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	while (!ready)
		if (pthread_cond_wait(&cv, &mu) == EINTR)
			cond_eintr = 1;
	pthread_mutex_unlock(&mu);
	done = 1;
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	struct timespec ts = { 30, 0 }, rem = { 0, 0 };
	int r = nanosleep(&ts, &rem);
	result_err = r < 0 && errno == EINTR && rem.tv_sec < 30 && (rem.tv_sec > 0 || rem.tv_nsec > 0) ? EINTR : -2;
	done = 1;
	return NULL;
}

/* Starts fn as the target and signals it until its handler has run n
 * times: the wait may not have begun when the first signal arrives. */
static void start_and_kick(void *(*fn)(void *), int n)
{
	hits = wrong = 0;
	done = 0;
	pthread_create(&target, NULL, fn, NULL);
	while (hits < n) {
		ms(5);
		pthread_kill(target, SIGUSR1);
	}
}

/* Sends until the thread is done: its wait may not have begun yet when
 * the first signal arrives. */
static void interrupt(void *(*fn)(void *))
{
	hits = wrong = 0;
	done = 0;
	result_err = -1;
	pthread_create(&target, NULL, fn, NULL);
	kick_until_done(target, &done, SIGUSR1, 5);
}

static void test_waits(void)
{
	sem_init(&sem, 0, 0);
	handle(SIGUSR1, on_usr1, 0);
	interrupt(sem_waiter);
	CHECK(result_err == EINTR && hits >= 1 && wrong == 0, "sem_wait ends with EINTR");

	pipe(pipefd);
	interrupt(pipe_reader);
	CHECK(result_err == EINTR && wrong == 0, "read on a pipe, handler without SA_RESTART: EINTR");

	interrupt(sleeper);
	CHECK(result_err == EINTR && wrong == 0, "nanosleep ends with EINTR and the time left");

	/* With SA_RESTART the read goes on and returns the data. */
	handle(SIGUSR1, on_usr1, SA_RESTART);
	start_and_kick(pipe_reader, 3);
	write(pipefd[1], "x", 1);
	pthread_join(target, NULL);
	CHECK(result_err == 1001 && wrong == 0, "read on a pipe, SA_RESTART handler: the read goes on");

	start_and_kick(cond_waiter, 3);
	pthread_mutex_lock(&mu);
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(target, NULL);
	CHECK(done && !cond_eintr && wrong == 0, "pthread_cond_wait: handler runs, no EINTR");
	close(pipefd[0]);
	close(pipefd[1]);
	handle(SIGUSR1, on_usr1, 0);
}

/* --- inheritance and the attribute --- */

static void *report_mask(void *arg)
{
	sigset_t *out = arg;
	pthread_sigmask(SIG_BLOCK, NULL, out);
	return NULL;
}

static void test_inherit(void)
{
	sigset_t s, got, saved;
	set_one(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, &saved);
	pthread_t t;
	pthread_create(&t, NULL, report_mask, &got);
	pthread_join(t, NULL);
	CHECK(sigismember(&got, SIGUSR2) && !sigismember(&got, SIGINT), "a new thread inherits its creator's mask");

	pthread_attr_t a;
	pthread_attr_init(&a);
	set_one(&s, SIGINT);
	pthread_attr_setsigmask_np(&a, &s);
	pthread_create(&t, &a, report_mask, &got);
	pthread_join(t, NULL);
	pthread_attr_destroy(&a);
	CHECK(sigismember(&got, SIGINT) && !sigismember(&got, SIGUSR2), "pthread_attr_setsigmask_np sets it instead");
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

/* --- the signal thread --- */

static volatile int waited;

static void *signal_thread(void *arg)
{
	(void)arg;
	sigset_t s;
	set_one(&s, SIGTERM);
	for (int i = 0; i < 5; i++) {
		siginfo_t si;
		if (sigwaitinfo(&s, &si) == SIGTERM && si.si_code == SI_USER && si.si_pid == getpid())
			waited++;
	}
	return NULL;
}

static void *busy(void *arg)
{
	(void)arg;
	while (waited < 5)
		ms(1);
	return NULL;
}

static void test_sigwait(void)
{
	sigset_t s, saved;
	set_one(&s, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &s, &saved); /* every thread made from here blocks it */
	pthread_t w, b[3];
	pthread_create(&w, NULL, signal_thread, NULL);
	for (int i = 0; i < 3; i++)
		pthread_create(&b[i], NULL, busy, NULL);
	for (int i = 0; i < 5; i++) {
		int before = waited;
		kill(getpid(), SIGTERM);
		for (int k = 0; k < 5000 && waited == before; k++)
			ms(1);
	}
	pthread_join(w, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(b[i], NULL);
	CHECK(waited == 5, "sigwaitinfo thread receives 5 process-directed SIGTERM");
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

/* Once no thread takes SIGTERM (its action is the default: the end of
 * the process), a SIGTERM sent to the process stays pending for
 * sigwaitinfo: from the moment the last thread's pthread_sigmask blocks
 * it, or the last thread that took it has been joined.  Threads come and
 * go in between, so that the runtime's threads that ran them are idle,
 * with the mask they had then, when the signal is sent. */
static void *nap(void *unblock)
{
	if (unblock) {
		sigset_t s;
		set_one(&s, SIGTERM);
		pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	}
	nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	return NULL;
}

static int blocked_by_all(bool by_exit, int rounds)
{
	sigset_t s, saved;
	set_one(&s, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &s, &saved);
	int got = 0;
	for (int i = 0; i < rounds; i++) {
		pthread_t t[3];
		if (!by_exit)
			pthread_sigmask(SIG_UNBLOCK, &s, NULL);
		for (int k = 0; k < 3; k++)
			pthread_create(&t[k], NULL, nap, by_exit ? &t : NULL);
		for (int k = 0; k < 3; k++)
			pthread_join(t[k], NULL);
		if (!by_exit)
			pthread_sigmask(SIG_BLOCK, &s, NULL);
		kill(getpid(), SIGTERM);
		siginfo_t si;
		got += sigwaitinfo(&s, &si) == SIGTERM;
	}
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return got;
}

static void test_blocked_by_all(void)
{
	CHECK(blocked_by_all(false, 500) == 500, "SIGTERM sent right after the last pthread_sigmask blocks it waits");
	CHECK(blocked_by_all(true, 500) == 500, "SIGTERM sent after the last thread taking it is joined waits");
}

/* --- alternate stacks --- */

static __thread char *alt_lo;
static __thread volatile int on_alt;

static void on_usr2(int sig)
{
	char here;
	(void)sig;
	on_alt = &here >= alt_lo && &here < alt_lo + SIGSTKSZ * 4;
}

static sem_t turn[2];

static void *alt_user(void *arg)
{
	long me = (long)arg;
	alt_lo = malloc(SIGSTKSZ * 4);
	stack_t ss = { .ss_sp = alt_lo, .ss_size = SIGSTKSZ * 4 }, cur;
	sigaltstack(&ss, NULL);
	/* Let the other thread install its own stack in between. */
	sem_post(&turn[!me]);
	sem_wait(&turn[me]);
	sigaltstack(NULL, &cur);
	raise(SIGUSR2);
	int ok = on_alt && cur.ss_sp == alt_lo;
	sem_post(&turn[!me]);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	free(alt_lo);
	return (void *)(intptr_t)ok;
}

static void test_altstack(void)
{
	handle(SIGUSR2, on_usr2, SA_ONSTACK);
	sem_init(&turn[0], 0, 0);
	sem_init(&turn[1], 0, 0);
	pthread_t t[2];
	void *ok[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, alt_user, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], &ok[i]);
	CHECK(ok[0] && ok[1], "each thread's handler runs on its own alternate stack");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* each check shows even if a later one hangs */
	handle(SIGUSR1, on_usr1, 0);
	test_masked();
	test_running();
	test_runnable();
	test_waits();
	test_inherit();
	test_sigwait();
	test_blocked_by_all();
	test_altstack();
	return failures != 0;
}
