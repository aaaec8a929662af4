/* The stop-the-world protocol of Boehm GC (Guile, w3m, Inkscape...) and
 * Mono's SGen: the collector sends each thread a suspend signal whose
 * handler, with every signal blocked (sa_mask), acknowledges and then
 * waits in sigsuspend for the restart signal; once all acknowledged, the
 * collector sends each the restart signal.  Under the shim the handler's
 * mask used to hold the restart signal back for the whole sigsuspend, so
 * the first suspended thread never resumed.  As Mono's, the handler then
 * unblocks the restart signal with pthread_sigmask, a change that ends
 * with the handler: under the shim it used to outlive it as the thread's
 * mask, nearly everything blocked, and the next round's suspend signal
 * stayed pending for good.  The threads are caught sleeping, computing,
 * blocked on a mutex the collector holds, in a condition wait, and (the
 * churners) mostly inside the runtime's own code: short timed waits and a
 * contended mutex.  A suspend handler that ran there while the runtime
 * held one of its locks waited in sigsuspend with it, and the collector's
 * own timed wait, needing that lock, never got to send the restart. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define NTHREADS 7
/* Under an emulator a tenth (check.h, test_work). */
#define ROUNDS 200
#define SUSPEND SIGUSR1
#define RESTART SIGUSR2

static sem_t acks;
static __thread volatile sig_atomic_t restarted;
static volatile sig_atomic_t resumes;
static volatile int stop;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cvmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void on_restart(int sig)
{
	(void)sig;
	restarted = 1;
}

static void on_suspend(int sig)
{
	(void)sig;
	sigset_t wait;
	sigfillset(&wait);
	sigdelset(&wait, RESTART);
	restarted = 0;
	sem_post(&acks);
	while (!restarted)
		sigsuspend(&wait);
	sigset_t restart;
	sigemptyset(&restart);
	sigaddset(&restart, RESTART);
	pthread_sigmask(SIG_UNBLOCK, &restart, NULL);
	__atomic_add_fetch(&resumes, 1, __ATOMIC_RELAXED);
}

static void *sleeper(void *arg)
{
	(void)arg;
	while (!stop)
		pause_us(1000);
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	spin_until(&stop);
	return NULL;
}

static void *locker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&held); /* the collector holds it until the end */
	pthread_mutex_unlock(&held);
	return NULL;
}

static void *short_sleeper(void *arg)
{
	(void)arg;
	while (!stop) {
		struct timespec ts = { 0, 1000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static pthread_mutex_t churn = PTHREAD_MUTEX_INITIALIZER;

static void *churner(void *arg)
{
	(void)arg;
	while (!stop) {
		pthread_mutex_lock(&churn);
		sched_yield();
		pthread_mutex_unlock(&churn);
	}
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cvmu);
	while (!stop)
		pthread_cond_wait(&cv, &cvmu);
	pthread_mutex_unlock(&cvmu);
	return NULL;
}

/* Waits for n acknowledgements, 20 s at most each. */
static int acked(int n)
{
	for (int i = 0; i < n; i++) {
		struct timespec dl = deadline_in(CLOCK_REALTIME, 20000000000L);
		if (sem_timedwait(&acks, &dl) != 0)
			return 0;
	}
	return 1;
}

int main(void)
{
	sem_init(&acks, 0, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigfillset(&sa.sa_mask);
	sa.sa_handler = on_suspend;
	sa.sa_flags = SA_RESTART;
	sigaction(SUSPEND, &sa, NULL);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_restart;
	sigaction(RESTART, &sa, NULL);

	pthread_mutex_lock(&held);
	void *(*fn[NTHREADS])(void *) = { sleeper, spinner, locker, waiter, short_sleeper, churner, churner };
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, fn[i], NULL);
	pause_us(20000);

	int rounds = 0;
	const int nrounds = (int)test_work(ROUNDS);
	for (; rounds < nrounds; rounds++) {
		for (int i = 0; i < NTHREADS; i++)
			pthread_kill(t[i], SUSPEND);
		if (!acked(NTHREADS))
			break;
		int before = resumes;
		for (int i = 0; i < NTHREADS; i++)
			pthread_kill(t[i], RESTART);
		/* Every thread resumes before the next round. */
		for (int w = 0; w < 20000 && resumes < before + NTHREADS; w++)
			pause_us(1000);
		if (resumes < before + NTHREADS)
			break;
	}
	CHECK(rounds == nrounds, "every round: every thread acknowledged the suspend and resumed on restart");
	if (rounds < nrounds) {
		fprintf(stderr, "stuck in round %d: %d resumes\n", rounds, resumes);
		fflush(stdout);
		_exit(1); /* a thread asleep in its handler would never be joined */
	}
	stop = 1;
	pthread_mutex_unlock(&held);
	pthread_mutex_lock(&cvmu);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&cvmu);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(made_as_gs(NTHREADS), "the threads were made as Gs under the shim");
	return failures != 0;
}
