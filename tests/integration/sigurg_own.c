/* A program that uses SIGURG itself gets exactly its own: the runtime
 * preempts with SIGURG by default, and none of those may reach the
 * program's handler, while every SIGURG the program or the kernel sends
 * must.  CPU-bound threads keep preemption busy (GMP_TIMESLICE=1ms). */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "tcppair.h"

#define SPINNERS 2

static volatile int stop;
static volatile int count, tkill, kernel, queued, other;

static void on_urg(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig != SIGURG)
		other++;
	else if (si->si_code == SI_TKILL)
		tkill++;
	else if (si->si_code == SI_QUEUE && si->si_value.sival_int == 1234)
		queued++;
	else if (si->si_code == SI_KERNEL || si->si_code > 0)
		kernel++;
	else
		other++;
	count++;
}

static void *spinner(void *arg)
{
	(void)arg;
	spin_until(&stop);
	return NULL;
}

/* Sleeping between sends keeps the sender from running a whole slice,
 * so no preemption request is pending on its thread when it sends:
 * SIGURG is not a queued signal, and two pending instances are one. */
static void pause_ms(void)
{
	struct timespec ts = { 0, 1000000 };
	nanosleep(&ts, NULL);
}

static void wait_count(int want)
{
	for (int i = 0; i < 5000 && count < want; i++)
		pause_ms();
}

int main(void)
{
	struct sigaction sa = { 0 }, old;
	sa.sa_sigaction = on_urg;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGURG, &sa, NULL);
	sigaction(SIGURG, NULL, &old);
	CHECK(old.sa_sigaction == on_urg && (old.sa_flags & SA_SIGINFO), "sigaction reports the program's handler");

	pthread_t t[SPINNERS];
	for (int i = 0; i < SPINNERS; i++)
		pthread_create(&t[i], NULL, spinner, NULL);

	for (int i = 0; i < 20; i++) {
		pthread_kill(pthread_self(), SIGURG);
		pause_ms();
	}
	for (int i = 0; i < 20; i++) {
		raise(SIGURG);
		pause_ms();
	}
	CHECK(tkill == 40 && count == 40, "40 SIGURG sent to itself: 40 handled, SI_TKILL");

	union sigval v = { .sival_int = 1234 };
	sigqueue(getpid(), SIGURG, v);
	wait_count(41);
	CHECK(queued == 1 && count == 41, "sigqueue to the process: handled once with its value");

	/* Out-of-band TCP data: the kernel sends SIGURG to the owner. */
	int sv[2];
	if (tcp_pair(sv) != 0)
		return 1;
	int c = sv[0], s = sv[1];
	fcntl(s, F_SETOWN, getpid());
	for (int i = 0; i < 10; i++) {
		char ch = 'x', in;
		send(c, &ch, 1, MSG_OOB);
		wait_count(42 + i);
		recv(s, &in, 1, MSG_OOB);
	}
	CHECK(kernel == 10 && count == 51, "10 out-of-band bytes: 10 SIGURG from the kernel");
	stop = 1;
	for (int i = 0; i < SPINNERS; i++)
		pthread_join(t[i], NULL);
	CHECK(other == 0, "no SIGURG the program did not send");
	close(c);
	close(s);
	return failures != 0;
}
