/* sem_post is async-signal-safe (POSIX): a SIGALRM handler posts thousands
 * of times while one thread hammers the same semaphore in a tight
 * post/take loop (so the handler often interrupts it inside sem_post,
 * waking the parked waiter) and another thread waits for posts.  Every
 * post must be counted exactly, and nothing may deadlock.  First, the
 * actions the program installs (run through the shim's trampoline) are
 * reported back and run as set. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "check.h"

#define POSTS 3000

static sem_t s;
/* A process-directed signal may run its handler on two threads at once. */
static int claimed, posted;
static volatile int loop_stop;
static volatile long loop_rounds;
static int post_failures;

static void on_alarm(int sig)
{
	(void)sig;
	int saved = errno;
	if (__atomic_fetch_add(&claimed, 1, __ATOMIC_RELAXED) < POSTS) {
		if (sem_post(&s) != 0)
			__atomic_add_fetch(&post_failures, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&posted, 1, __ATOMIC_RELEASE);
	}
	errno = saved;
}

static void wait_one(void)
{
	while (sem_wait(&s) != 0)
		if (errno != EINTR)
			break;
}

/* Each round posts one and takes one back (not necessarily the same: the
 * waiter may take ours, we then take one of the handler's), so the
 * semaphore stays balanced; we never block, so a round may be left owing
 * one when we are told to stop. */
static int owed;

static void *hammer(void *arg)
{
	(void)arg;
	while (!loop_stop) {
		sem_post(&s);
		owed = 1;
		while (!loop_stop) {
			if (sem_trywait(&s) == 0) {
				owed = 0;
				break;
			}
			sched_yield();
		}
		if (owed)
			break;
		loop_rounds++;
		sched_yield(); /* no preemption under the shim: let the waiter in at one P */
	}
	return NULL;
}

static void *waiter(void *arg)
{
	long *got = arg;
	for (int i = 0; i < POSTS; i++) {
		wait_one();
		(*got)++;
	}
	return NULL;
}

static volatile int info_signo, info_code;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	info_signo = si->si_signo;
	info_code = si->si_code;
}

static volatile int plain_calls;

static void on_usr2(int sig)
{
	(void)sig;
	plain_calls++;
}

/* The handlers run inside the shim's wrapper: what the program set must
 * be what it gets back and what runs. */
static void actions_round_trip(void)
{
	struct sigaction sa, back;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0, "SA_SIGINFO handler installed");
	CHECK(sigaction(SIGUSR1, NULL, &back) == 0 && back.sa_sigaction == on_usr1 && (back.sa_flags & SA_SIGINFO) &&
		      sigismember(&back.sa_mask, SIGUSR2),
	      "SA_SIGINFO handler, flag and mask reported back");
	raise(SIGUSR1);
	CHECK(info_signo == SIGUSR1 && info_code == SI_TKILL, "SA_SIGINFO handler ran with its siginfo");
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr2;
	sa.sa_flags = SA_RESETHAND;
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0, "SA_RESETHAND handler installed");
	raise(SIGUSR2);
	CHECK(plain_calls == 1, "SA_RESETHAND handler ran once");
	CHECK(sigaction(SIGUSR2, NULL, &back) == 0 && back.sa_handler == SIG_DFL, "then the action is SIG_DFL");
	CHECK(signal(SIGUSR2, on_usr2) == SIG_DFL && signal(SIGUSR2, SIG_IGN) == on_usr2,
	      "signal() returns the previous handlers");
	signal(SIGUSR1, SIG_DFL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	actions_round_trip();
	sem_init(&s, 0, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGALRM, &sa, NULL) == 0, "sigaction SIGALRM");
	struct sigaction back;
	CHECK(sigaction(SIGALRM, NULL, &back) == 0 && back.sa_handler == on_alarm &&
		      (back.sa_flags & SA_RESTART) && !(back.sa_flags & SA_SIGINFO),
	      "sigaction reports the handler and flags the program set");

	long got = 0;
	pthread_t h, w;
	pthread_create(&h, NULL, hammer, NULL);
	while (loop_rounds < 100) /* the hammer is going before the first signal */
		usleep(100);
	pthread_create(&w, NULL, waiter, &got);
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_join(w, NULL);
	/* The waiter may have counted the hammer's last post in place of the
	 * handler's last one. */
	while (__atomic_load_n(&posted, __ATOMIC_ACQUIRE) < POSTS)
		usleep(100);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	loop_stop = 1;
	pthread_join(h, NULL);

	int v = -1;
	sem_getvalue(&s, &v);
	CHECK(posted == POSTS && post_failures == 0, "the handler posted 3000 times");
	CHECK(got == POSTS, "the waiter counted exactly 3000 posts");
	CHECK(v == owed, "the semaphore holds exactly what the hammer still owes");
	CHECK(sem_destroy(&s) == 0, "sem_destroy");
	return failures != 0;
}
