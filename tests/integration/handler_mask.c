/* A signal handler's changes to the thread's mask end with the handler:
 * rt_sigreturn installs the mask of the context it returns to.  A
 * pthread_sigmask inside the handler is undone; a handler that rewrites
 * uc_sigmask in its context gives the thread that mask.  Under the shim
 * the first used to outlive the handler as the thread's mask (Mono's
 * collector hung at its second stop-the-world: gc_suspend), so a signal
 * sent later to the sleeping thread stayed pending for good.  And the
 * handler of a signal that ends sigsuspend runs with the call's mask (and
 * the call's end restores the thread's): a signal the call blocked waits
 * for that handler and the call to end. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"

static volatile sig_atomic_t usr2_ran;
static volatile int phase, ready;
static pthread_t usr2_on;

/* Blocks everything but SIGUSR1 itself from inside the handler. */
static void block_inside(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
}

/* Makes the interrupted context block SIGUSR2. */
static void block_on_return(int sig, siginfo_t *si, void *ucv)
{
	(void)sig, (void)si;
	sigaddset(&((ucontext_t *)ucv)->uc_sigmask, SIGUSR2);
}

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	usr2_on = pthread_self();
	usr2_ran = 1;
}

/* Sleeps until SIGUSR2's handler ran on this thread, 10 s at most. */
static int sleep_until_usr2(void)
{
	for (int i = 0; i < 1000 && !usr2_ran; i++) {
		struct timespec ts = { 0, 10000000 };
		nanosleep(&ts, NULL);
	}
	return usr2_ran && pthread_equal(usr2_on, pthread_self());
}

static void *target(void *arg)
{
	(void)arg;
	sigset_t cur, usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);

	/* 1: pthread_sigmask inside the handler. */
	pthread_kill(pthread_self(), SIGUSR1);
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	CHECK(!sigismember(&cur, SIGUSR2) && !sigismember(&cur, SIGTERM),
	      "the mask a handler set with pthread_sigmask ended with the handler");
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	CHECK(sleep_until_usr2(), "a signal sent afterwards reached the sleeping thread's handler");

	/* 2: uc_sigmask rewritten by the handler. */
	while (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 2)
		pause_us(1000);
	usr2_ran = 0;
	pthread_kill(pthread_self(), SIGUSR1);
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	CHECK(sigismember(&cur, SIGUSR2), "the context's mask the handler rewrote became the thread's");
	__atomic_store_n(&ready, 2, __ATOMIC_RELEASE);
	while (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 3)
		pause_us(1000);
	pause_us(50000); /* where it would have been taken */
	sigset_t pend;
	sigpending(&pend);
	CHECK(!usr2_ran && sigismember(&pend, SIGUSR2), "a signal sent then stays pending on the thread");
	pthread_sigmask(SIG_UNBLOCK, &usr2, NULL);
	CHECK(usr2_ran && pthread_equal(usr2_on, pthread_self()), "unblocked, it is taken by that thread");
	return NULL;
}

static volatile sig_atomic_t order, a_saw_b_blocked, b_after_a;

static void on_a(int sig)
{
	(void)sig;
	sigset_t cur;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	a_saw_b_blocked = sigismember(&cur, SIGUSR2);
	order = 1;
}

static void on_b(int sig)
{
	(void)sig;
	b_after_a = order == 1;
	order = 2;
}

/* Blocks SIGUSR1, then waits in sigsuspend with only SIGUSR2 blocked. */
static void *suspender(void *arg)
{
	(void)arg;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_SETMASK, &s, NULL);
	__atomic_store_n(&ready, 3, __ATOMIC_RELEASE);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sigsuspend(&s);
	/* SIGUSR1 blocked again; SIGUSR2 was let in as the call ended. */
	return NULL;
}

static void suspend_case(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_a;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_b;
	sigaction(SIGUSR2, &sa, NULL);
	pthread_t t;
	pthread_create(&t, NULL, suspender, NULL);
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != 3)
		pause_us(1000);
	pause_us(20000); /* in sigsuspend by now */
	pthread_kill(t, SIGUSR2);
	pause_us(20000);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	CHECK(a_saw_b_blocked, "sigsuspend's end: its mask blocks in the handler");
	CHECK(b_after_a && order == 2, "a signal the call blocked runs after, as the call ends");
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = block_inside;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask); /* as a collector's suspend handler */
	sigaction(SIGUSR1, &sa, NULL);
	handle_info(SIGUSR2, on_usr2, 0);

	pthread_t t;
	pthread_create(&t, NULL, target, NULL);
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != 1)
		pause_us(1000);
	pause_us(20000); /* asleep in nanosleep by now */
	pthread_kill(t, SIGUSR2);

	sa.sa_sigaction = block_on_return;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	__atomic_store_n(&phase, 2, __ATOMIC_RELEASE);
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != 2)
		pause_us(1000);
	pthread_kill(t, SIGUSR2);
	__atomic_store_n(&phase, 3, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	suspend_case();
	CHECK(made_as_gs(2), "the threads were made as Gs under the shim");
	return failures != 0;
}
