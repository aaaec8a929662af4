/* Thread-directed signals a thread waits for: pthread_kill and
 * pthread_sigqueue to a thread in sigwait/sigwaitinfo/sigtimedwait (the
 * signal-thread pattern), with the siginfo natively seen, and
 * pthread_sigqueue's value reaching an SA_SIGINFO handler. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include "check.h"

static sigset_t usr1, both;
static pthread_barrier_t bar;

struct got {
	int sig, code, value;
};

static void *waiter(void *arg)
{
	struct got *g = arg;
	siginfo_t si;
	pthread_barrier_wait(&bar);
	g->sig = sigwaitinfo(&usr1, &si);
	g->code = si.si_code;
	g->value = si.si_value.sival_int;
	return NULL;
}

static void *sigwaiter(void *arg)
{
	int *sig = arg;
	pthread_barrier_wait(&bar);
	sigwait(&usr1, sig);
	return NULL;
}

/* Waits for SIGUSR1 while SIGUSR2, which it also blocks, is sent to it
 * first: USR2 must stay pending on it, not be lost or taken by the wait. */
static void *selective(void *arg)
{
	int *ok = arg;
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar); /* USR2 sent */
	siginfo_t si;
	int s = sigwaitinfo(&usr1, &si);
	sigset_t pend;
	sigpending(&pend);
	struct timespec zero = { 0, 0 };
	int s2 = sigtimedwait(&both, &si, &zero);
	*ok = s == SIGUSR1 && sigismember(&pend, SIGUSR2) && s2 == SIGUSR2;
	return NULL;
}

static volatile sig_atomic_t hcode, hvalue, hsig;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	hsig = sig;
	hcode = si->si_code;
	hvalue = si->si_value.sival_int;
}

static void *parked_reader(void *arg)
{
	int *fds = arg;
	char c;
	pthread_barrier_wait(&bar);
	ssize_t n = read(fds[0], &c, 1); /* the handler interrupts or not; then a byte comes */
	while (n < 0 && errno == EINTR)
		n = read(fds[0], &c, 1);
	return NULL;
}

int main(void)
{
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	both = usr1;
	sigaddset(&both, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	pthread_barrier_init(&bar, NULL, 2);

	for (int round = 0; round < 20; round++) {
		struct got g = { 0 };
		pthread_t t;
		pthread_create(&t, NULL, waiter, &g);
		pthread_barrier_wait(&bar);
		if (round % 2)
			usleep(1000); /* now it is most likely inside the wait */
		union sigval v = { .sival_int = 1000 + round };
		pthread_sigqueue(t, SIGUSR1, v);
		pthread_join(t, NULL);
		if (g.sig != SIGUSR1 || g.code != SI_QUEUE || g.value != 1000 + round) {
			printf("round %d: sig %d code %d value %d\n", round, g.sig, g.code, g.value);
			failures++;
		}
	}
	CHECK(failures == 0, "pthread_sigqueue to sigwaitinfo: SI_QUEUE and the value, 20 rounds");

	int bad = 0;
	for (int round = 0; round < 20; round++) {
		int sig = 0;
		pthread_t t;
		pthread_create(&t, NULL, sigwaiter, &sig);
		pthread_barrier_wait(&bar);
		if (round % 2)
			usleep(1000);
		pthread_kill(t, SIGUSR1);
		pthread_join(t, NULL);
		bad += sig != SIGUSR1;
	}
	CHECK(bad == 0, "pthread_kill to a thread in sigwait, 20 rounds");

	struct got g = { 0 };
	pthread_t t;
	pthread_create(&t, NULL, waiter, &g);
	pthread_barrier_wait(&bar);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	CHECK(g.sig == SIGUSR1 && g.code == SI_USER, "sigwaitinfo reports pthread_kill as SI_USER (glibc folds SI_TKILL)");

	int ok = 0;
	pthread_create(&t, NULL, selective, &ok);
	pthread_barrier_wait(&bar);
	pthread_kill(t, SIGUSR2);
	pthread_barrier_wait(&bar);
	usleep(1000);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	CHECK(ok, "a blocked signal the wait does not ask for stays pending on the thread");

	/* An SA_SIGINFO handler gets pthread_sigqueue's code and value. */
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	int fds[2];
	pipe(fds);
	pthread_sigmask(SIG_UNBLOCK, &both, NULL); /* the reader inherits an open mask */
	pthread_create(&t, NULL, parked_reader, fds);
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	pthread_barrier_wait(&bar);
	usleep(2000);
	pthread_sigqueue(t, SIGUSR2, (union sigval){ .sival_int = 77 });
	while (hsig == 0)
		usleep(1000);
	write(fds[1], "x", 1);
	pthread_join(t, NULL);
	CHECK(hsig == SIGUSR2 && hcode == SI_QUEUE && hvalue == 77, "SA_SIGINFO handler of a parked thread: SI_QUEUE, 77");

	/* Exited, not yet joined: glibc's sigqueue addresses the gone TID. */
	int pol;
	struct sched_param sp;
	pthread_create(&t, NULL, sigwaiter, &ok);
	pthread_barrier_wait(&bar);
	pthread_kill(t, SIGUSR1);
	while (pthread_getschedparam(t, &pol, &sp) == 0)
		usleep(1000);
	CHECK(pthread_sigqueue(t, SIGUSR1, (union sigval){ 0 }) == ESRCH, "pthread_sigqueue to an exited thread: ESRCH");
	pthread_join(t, NULL);
	return failures != 0;
}
