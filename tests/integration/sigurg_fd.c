/* Programs that take SIGURG through a signalfd or sigwaitinfo instead of a
 * handler: PostgreSQL (14 on) wakes a backend's latch with kill(pid,
 * SIGURG) from another process, and the backend, which blocks SIGURG,
 * reads it from a signalfd in its epoll set.  Every instance must arrive:
 * natively a blocked signal stays pending until read.  Were SIGURG still
 * the runtime's, the kernel would hand the process-directed instance to an
 * M that never blocks it, whose handler sees the program's SIG_DFL
 * (ignore) and drops it: a PostgreSQL backend then slept until its next
 * timeout (0.7 s stalls under pgbench).
 *
 * Part 1: a child process sends SIGURG to this process ROUNDS times, each
 * after the last was read here from a signalfd (epoll, as PostgreSQL).
 * Part 2: a thread takes SIGURG in sigwaitinfo, sent by pthread_kill, and
 * a sigqueue from the child with a value.  Meanwhile spinners that only
 * preemption takes off their CPU keep the runtime's requests coming (run
 * with a 1 ms slice), and at one P main itself runs only when they are
 * preempted: preemption must survive the runtime leaving SIGURG. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 200
#define SPINNERS 2
#define WAIT_MS 20000 /* a lost signal: fail, not hang */

static volatile int stop;

static void *spinner(void *arg)
{
	(void)arg;
	spin_until(&stop);
	return NULL;
}

/* The child: a signal to the parent, then the parent's go-ahead, ROUNDS
 * times; then one sigqueue with a value.  Exits 1 if the parent stops
 * answering. */
static void sender(pid_t parent, int ack)
{
	char c;
	for (int i = 0; i < ROUNDS; i++) {
		if (kill(parent, SIGURG) != 0 || read(ack, &c, 1) != 1)
			_exit(1);
	}
	if (read(ack, &c, 1) != 1) /* part 2 is ready */
		_exit(1);
	sigqueue(parent, SIGURG, (union sigval){ .sival_int = 4242 });
	_exit(0);
}

struct waiter {
	sem_t ready, got;
	int signo, code, value;
};

static void *sigwaiter(void *arg)
{
	struct waiter *w = arg;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGURG);
	for (int i = 0; i < 2; i++) {
		sem_post(&w->ready);
		siginfo_t si;
		struct timespec limit = { WAIT_MS / 1000, 0 };
		int s = sigtimedwait(&set, &si, &limit);
		w->signo = s;
		w->code = s > 0 ? si.si_code : 0;
		w->value = s > 0 ? si.si_value.sival_int : 0;
		sem_post(&w->got);
	}
	return NULL;
}

int main(void)
{
	sigset_t urg;
	sigemptyset(&urg);
	sigaddset(&urg, SIGURG);
	signal(SIGPIPE, SIG_IGN); /* a failed run writes to a dead sender */
	pthread_sigmask(SIG_BLOCK, &urg, NULL); /* every thread made from here on blocks it */
	int sfd = signalfd(-1, &urg, SFD_NONBLOCK | SFD_CLOEXEC);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = sfd };
	epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);

	pthread_t sp[SPINNERS];
	for (int i = 0; i < SPINNERS; i++)
		pthread_create(&sp[i], NULL, spinner, NULL);

	int ackp[2];
	if (pipe(ackp) != 0)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		close(ackp[1]);
		sender(getppid(), ackp[0]);
	}
	close(ackp[0]);

	int got = 0, from_child = 0;
	for (int i = 0; i < ROUNDS;) {
		struct epoll_event out;
		if (epoll_wait(ep, &out, 1, WAIT_MS) != 1) {
			fprintf(stderr, "round %d: no SIGURG within %d ms\n", i, WAIT_MS);
			break;
		}
		struct signalfd_siginfo si;
		if (read(sfd, &si, sizeof si) != sizeof si)
			continue;
		i++;
		got += si.ssi_signo == SIGURG;
		from_child += si.ssi_pid == (uint32_t)child && si.ssi_code == SI_USER;
		if (write(ackp[1], "k", 1) != 1)
			break;
	}
	if (got != ROUNDS)
		kill(child, SIGKILL); /* it waits for an answer that will not come */
	CHECK(got == ROUNDS, "every kill(SIGURG) of another process read from the signalfd");
	CHECK(from_child == ROUNDS, "each with the sender's pid and SI_USER");

	/* Part 2: sigtimedwait in a thread; the signalfd no longer wants
	 * SIGURG, or it could take the process-directed one first. */
	sigset_t none;
	sigemptyset(&none);
	signalfd(sfd, &none, 0);
	struct waiter w = { .signo = -1 };
	sem_init(&w.ready, 0, 0);
	sem_init(&w.got, 0, 0);
	pthread_t wt;
	pthread_create(&wt, NULL, sigwaiter, &w);
	sem_wait(&w.ready);
	pthread_kill(wt, SIGURG);
	sem_wait(&w.got);
	CHECK(w.signo == SIGURG && w.code == SI_USER, /* glibc reports tkill's SI_TKILL so */
	      "pthread_kill(SIGURG) taken by sigtimedwait");
	sem_wait(&w.ready);
	if (write(ackp[1], "k", 1) != 1)
		pthread_kill(wt, SIGURG); /* no sender: end the wait */
	sem_wait(&w.got);
	CHECK(w.signo == SIGURG && w.code == SI_QUEUE && w.value == 4242,
	      "another process's sigqueue(SIGURG) taken by sigtimedwait, with its value");
	pthread_join(wt, NULL);

	int status = -1;
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the sender process finished");
	stop = 1;
	for (int i = 0; i < SPINNERS; i++)
		pthread_join(sp[i], NULL);
	CHECK(made_as_gs(SPINNERS + 1), "its threads ran as Gs");
	return failures != 0;
}
