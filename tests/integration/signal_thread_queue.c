/* Real-time signals sent to one thread queue on it: every instance is
 * delivered once, in the order sent, with its own siginfo, however many
 * are pending at once (LTP's sigwait/2-1).  Under the shim a thread's
 * pending signals are kept by the runtime, not the kernel; until stop 58
 * they had one slot per signal, and the instances sent while the thread
 * blocked the signal, was parked or had not yet run came out as one.
 *
 *  - raise() twice while blocked: still pending after one sigwait, not
 *    after the second (sigwait/2-1; here sigtimedwait, so that a lost
 *    instance fails the check instead of hanging the test);
 *  - pthread_sigqueue and pthread_kill mixed, to a worker that blocks the
 *    signal and then unblocks it: a handler sees each value in order, the
 *    kill()s as SI_TKILL, the queued ones as SI_QUEUE from this process;
 *  - the same to a worker parked in sem_wait that does not block it: all
 *    delivered before sem_wait returns to it;
 *  - to a worker in sigwaitinfo: every value in order;
 *  - a standard signal and queued instances taken by sigwaitinfo: the
 *    standard one first (lowest number), then the instances in order,
 *    none lost in between.
 * Each round at least once with the instances sent from several threads
 * at once: the count still holds, and each sender's values are in order. */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <unistd.h>

#include "check.h"

#define N 16
#define SENDERS 3

static int rtsig;
static volatile int got[N * SENDERS], codes[N * SENDERS], pids[N * SENDERS], ngot;

static void on_signal(int s, siginfo_t *si, void *uc)
{
	(void)s;
	(void)uc;
	if (ngot < N * SENDERS) {
		got[ngot] = si->si_code == SI_QUEUE ? si->si_value.sival_int : -1;
		codes[ngot] = si->si_code;
		pids[ngot] = si->si_pid;
	}
	ngot++;
}

/* sigwaitinfo with a deadline: an instance lost must fail the check,
 * not hang the test. */
static int wait_one(const sigset_t *set, siginfo_t *si)
{
	struct timespec ts = { 2, 0 };
	return sigtimedwait(set, si, &ts);
}

static sigset_t rtset(void)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, rtsig);
	return s;
}

static int raise_twice(void)
{
	sigset_t one = rtset(), pend, old;
	siginfo_t si;
	int ok = 1;
	pthread_sigmask(SIG_BLOCK, &one, &old);
	raise(rtsig);
	raise(rtsig);
	sigpending(&pend);
	ok &= sigismember(&pend, rtsig) == 1;
	ok &= wait_one(&one, &si) == rtsig;
	sigpending(&pend);
	ok &= sigismember(&pend, rtsig) == 1;
	ok = ok && wait_one(&one, &si) == rtsig;
	sigpending(&pend);
	ok &= sigismember(&pend, rtsig) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

/* Instance i is a pthread_kill when i % 5 == 4, else queued with value i. */
static void send_one(pthread_t t, int i)
{
	if (i % 5 == 4)
		pthread_kill(t, rtsig);
	else
		pthread_sigqueue(t, rtsig, (union sigval){ .sival_int = i });
}

/* The first n instances seen are 0..n-1 as send_one sent them, the
 * kill()s with killcode (a handler sees SI_TKILL; glibc's sigwaitinfo
 * says SI_USER). */
static int seen_in_order(int n, int killcode)
{
	if (ngot != n)
		return 0;
	for (int i = 0; i < n; i++) {
		int want = i % 5 == 4 ? -1 : i;
		int code = i % 5 == 4 ? killcode : SI_QUEUE;
		if (got[i] != want || codes[i] != code || pids[i] != getpid())
			return 0;
	}
	return 1;
}

struct target {
	pthread_t t;
	sem_t cmd, ready, go, done;
	int mode; /* 0: blocks, then unblocks; 1: parked, not blocking; 2: sigwaitinfo */
	int ok;
	volatile int stop;
};

/* Per command: the mask the mode asks for, ready, then the instances
 * come (the target parked in sem_wait on go, or in sigwaitinfo). */
static void *target_main(void *arg)
{
	struct target *tg = arg;
	sigset_t one = rtset();
	for (;;) {
		sem_wait(&tg->cmd);
		if (tg->stop)
			return NULL;
		pthread_sigmask(tg->mode == 1 ? SIG_UNBLOCK : SIG_BLOCK, &one, NULL);
		ngot = 0;
		sem_post(&tg->ready);
		if (tg->mode == 2) {
			int ok = 1;
			for (int i = 0; i < N && ok; i++) {
				siginfo_t si;
				ok &= wait_one(&one, &si) == rtsig;
				got[i] = si.si_code == SI_QUEUE ? si.si_value.sival_int : -1;
				codes[i] = si.si_code;
				pids[i] = si.si_pid;
			}
			ngot = N;
			tg->ok = ok && seen_in_order(N, SI_USER);
		} else {
			while (sem_wait(&tg->go) != 0)
				; /* EINTR: a handler ran (mode 1) */
			/* A system call, where the kernel delivers what is
			 * pending: sem_wait may not have made one (natively the
			 * signals come at once, interrupting the thread; under
			 * the shim, one asked for while the thread runs the
			 * runtime's code waits for a point where handlers run). */
			pthread_sigmask(tg->mode == 0 ? SIG_UNBLOCK : SIG_BLOCK, tg->mode == 0 ? &one : NULL, NULL);
			tg->ok = seen_in_order(N, SI_TKILL);
		}
		sem_post(&tg->done);
	}
}

static void start_round(struct target *tg, int mode)
{
	tg->mode = mode;
	sem_post(&tg->cmd);
	sem_wait(&tg->ready);
}

static void end_round(struct target *tg)
{
	if (tg->mode != 2)
		sem_post(&tg->go);
	sem_wait(&tg->done);
}

/* N instances to the target. */
static int round_to(struct target *tg, int mode)
{
	start_round(tg, mode);
	for (int i = 0; i < N; i++)
		send_one(tg->t, i);
	end_round(tg);
	return tg->ok;
}

/* Several senders at once, each its own values s*N .. s*N+N-1, to a
 * target that blocks the signal: each sender's come in its order. */
struct sender {
	pthread_t to;
	int base;
	sem_t *start;
};

static void *sender_main(void *arg)
{
	struct sender *s = arg;
	sem_wait(s->start);
	for (int i = 0; i < N; i++)
		pthread_sigqueue(s->to, rtsig, (union sigval){ .sival_int = s->base + i });
	return NULL;
}

static int from_senders(struct target *tg)
{
	start_round(tg, 0);
	sem_t start;
	sem_init(&start, 0, 0);
	pthread_t th[SENDERS];
	struct sender sd[SENDERS];
	for (int s = 0; s < SENDERS; s++) {
		sd[s] = (struct sender){ tg->t, s * N, &start };
		pthread_create(&th[s], NULL, sender_main, &sd[s]);
	}
	for (int s = 0; s < SENDERS; s++)
		sem_post(&start);
	for (int s = 0; s < SENDERS; s++)
		pthread_join(th[s], NULL);
	end_round(tg); /* the target unblocks: every instance reaches it */
	if (ngot != N * SENDERS)
		return 0;
	int next[SENDERS] = { 0 };
	for (int i = 0; i < N * SENDERS; i++) {
		int s = got[i] / N;
		if (codes[i] != SI_QUEUE || s < 0 || s >= SENDERS || got[i] != s * N + next[s])
			return 0;
		next[s]++;
	}
	return 1;
}

/* SIGUSR1 and N queued instances pending on this thread: sigwaitinfo
 * takes SIGUSR1 first, then the instances in order. */
static int standard_first(void)
{
	sigset_t both = rtset(), old;
	sigaddset(&both, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &both, &old);
	for (int i = 0; i < N; i++)
		pthread_sigqueue(pthread_self(), rtsig, (union sigval){ .sival_int = i });
	pthread_kill(pthread_self(), SIGUSR1);
	siginfo_t si;
	int ok = wait_one(&both, &si) == SIGUSR1;
	for (int i = 0; i < N && ok; i++)
		ok &= wait_one(&both, &si) == rtsig && si.si_code == SI_QUEUE && si.si_value.sival_int == i;
	sigset_t pend;
	sigpending(&pend);
	ok &= !sigismember(&pend, rtsig) && !sigismember(&pend, SIGUSR1);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

int main(void)
{
	rtsig = SIGRTMIN + 2;
	struct sigaction sa = { 0 };
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigaction(rtsig, &sa, NULL);

	struct target tg = { 0 };
	sem_init(&tg.cmd, 0, 0);
	sem_init(&tg.ready, 0, 0);
	sem_init(&tg.go, 0, 0);
	sem_init(&tg.done, 0, 0);
	pthread_create(&tg.t, NULL, target_main, &tg);

	long rounds = test_work(60), bad[4] = { 0 }, badsenders = 0, badraise = 0, badstd = 0;
	for (long r = 0; r < rounds; r++) {
		for (int mode = 0; mode < 3; mode++)
			bad[mode] += !round_to(&tg, mode);
		badsenders += !from_senders(&tg);
		badraise += !raise_twice();
		badstd += !standard_first();
		if (bad[0] + bad[1] + bad[2] + badsenders + badraise + badstd)
			break; /* a lost instance costs a wait's deadline each round */
	}
	tg.stop = 1;
	sem_post(&tg.cmd);
	pthread_join(tg.t, NULL);

	if (bad[0] + bad[1] + bad[2] + badsenders + badraise + badstd)
		fprintf(stderr, "of %ld rounds failed (stopped at the first): blocked %ld, parked %ld, sigwaitinfo %ld, senders %ld, raise %ld, "
				"standard %ld\n",
			rounds, bad[0], bad[1], bad[2], badsenders, badraise, badstd);
	CHECK(badraise == 0, "raised twice while blocked: pending until the second sigwait");
	CHECK(bad[0] == 0, "to a thread that blocks it: each instance once, in order, own siginfo");
	CHECK(bad[1] == 0, "to a parked thread: each instance once, in order, own siginfo");
	CHECK(bad[2] == 0, "to a thread in sigwaitinfo: each instance once, in order, own siginfo");
	CHECK(badsenders == 0, "from several senders at once: all, each sender's in order");
	CHECK(badstd == 0, "a standard signal before the queued ones, none lost");
	CHECK(made_as_gs(1 + SENDERS), "the threads were made as Gs under the shim");
	return failures != 0;
}
