/* Alternate signal stacks under signal storms: a 1 ms SIGALRM itimer and
 * pthread_kill storms of SIGUSR1, both with SA_ONSTACK handlers, while
 * threads run, park (usleep, condition waits) and block in system calls
 * (pause).  Every thread but one has its own alternate stack: its handlers
 * must run on that stack and nowhere else, no two handlers may ever share
 * a stack, and a handler's frame must stay intact while it runs.  The
 * thread without one must run its handlers on its own stack. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "check.h"

#define ALTSZ (64 * 1024)
#define NRUN 2
#define NPARK 8
#define NSYS 2
#define NW (NRUN + NPARK + NSYS + 1) /* + one without an alternate stack */
#define RUN_MS 400

struct tstate {
	char *lo, *hi;           /* where its handlers must run */
	atomic_int inuse;        /* a handler of ours runs on that stack now */
	atomic_long handled;
	pthread_t t;
	int kind;
};

static struct tstate ts[NW + 1]; /* [NW]: main */
static __thread struct tstate *me;
static atomic_int stop;
static atomic_long bad_stack, shared_stack, clobbered, bad_query, strangers;

enum { K_RUN, K_PARK, K_SYS, K_NOALT };

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	int saved = errno;
	struct tstate *s = me;
	if (s == NULL) {
		atomic_fetch_add(&strangers, 1);
		errno = saved;
		return;
	}
	volatile uintptr_t frame[256];
	char *here = (char *)frame;
	if (here < s->lo || here >= s->hi)
		atomic_fetch_add(&bad_stack, 1);
	/* Both signals are blocked while either handler runs: a second
	 * handler on this stack can only be another thread's. */
	if (atomic_exchange(&s->inuse, 1) != 0)
		atomic_fetch_add(&shared_stack, 1);
	for (int i = 0; i < 256; i++)
		frame[i] = (uintptr_t)s ^ (uintptr_t)i;
	if (s->kind != K_NOALT) {
		stack_t q;
		if (sigaltstack(NULL, &q) != 0 || !(q.ss_flags & SS_ONSTACK) || (char *)q.ss_sp != s->lo)
			atomic_fetch_add(&bad_query, 1);
	}
	for (int r = 0; r < 20; r++)
		for (int i = 0; i < 256; i++)
			if (frame[i] != ((uintptr_t)s ^ (uintptr_t)i)) {
				atomic_fetch_add(&clobbered, 1);
				r = 20;
				break;
			}
	atomic_store(&s->inuse, 0);
	atomic_fetch_add(&s->handled, 1);
	errno = saved;
}

static void own_stack(struct tstate *s)
{
	if (s->kind == K_NOALT) {
		pthread_attr_t a;
		void *lo;
		size_t sz;
		pthread_getattr_np(pthread_self(), &a);
		pthread_attr_getstack(&a, &lo, &sz);
		pthread_attr_destroy(&a);
		s->lo = lo;
		s->hi = (char *)lo + sz;
	} else {
		char *p = mmap(NULL, ALTSZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		stack_t ss = { .ss_sp = p, .ss_size = ALTSZ, .ss_flags = 0 };
		if (p == MAP_FAILED || sigaltstack(&ss, NULL) != 0)
			abort();
		s->lo = p;
		s->hi = p + ALTSZ;
	}
	me = s;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

static void *worker(void *arg)
{
	struct tstate *s = arg;
	own_stack(s);
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	volatile unsigned long spin = 0;
	unsigned n = 0;
	while (!atomic_load(&stop)) {
		switch (s->kind) {
		case K_RUN:
			for (int i = 0; i < 100000; i++)
				spin++;
			break;
		case K_SYS:
			pause(); /* in the kernel until a signal: an M under the shim */
			break;
		default:
			if (n++ & 1) {
				usleep(300);
			} else {
				struct timespec d = deadline_in(CLOCK_REALTIME, 300000);
				pthread_mutex_lock(&mu);
				pthread_cond_timedwait(&cv, &mu, &d);
				pthread_mutex_unlock(&mu);
			}
		}
	}
	return NULL;
}

static void *storm(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		for (int i = 0; i < NW; i++)
			pthread_kill(ts[i].t, SIGUSR1);
		usleep(100);
	}
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGALRM);
	sigaddset(&sa.sa_mask, SIGUSR1);
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	/* Every thread starts with both blocked and takes them once its
	 * stack is set up. */
	pthread_sigmask(SIG_BLOCK, &sa.sa_mask, NULL);
	for (int i = 0; i < NW; i++) {
		ts[i].kind = i < NRUN ? K_RUN : i < NRUN + NPARK ? K_PARK : i < NRUN + NPARK + NSYS ? K_SYS : K_NOALT;
		pthread_create(&ts[i].t, NULL, worker, &ts[i]);
	}
	pthread_t st;
	pthread_create(&st, NULL, storm, NULL); /* with both blocked: no handler there */
	ts[NW].kind = K_PARK;
	own_stack(&ts[NW]);
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	/* The reported case: main asleep in usleep while the itimer fires. */
	struct timespec end = deadline_in(CLOCK_MONOTONIC, RUN_MS * 1000000L), now;
	do {
		usleep(500);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	int kt = kernel_threads();
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	atomic_store(&stop, 1);
	pthread_join(st, NULL);
	for (int i = 0; i < NW; i++) {
		/* pause() returns only for a signal. */
		while (pthread_tryjoin_np(ts[i].t, NULL) == EBUSY) {
			pthread_kill(ts[i].t, SIGUSR1);
			usleep(1000);
		}
	}
	int quiet = 0;
	for (int i = 0; i <= NW; i++) {
		if (i < NW && atomic_load(&ts[i].handled) == 0) {
			fprintf(stderr, "thread %d (kind %d) handled nothing\n", i, ts[i].kind);
			quiet++;
		}
	}
	fprintf(stderr, "bad_stack=%ld shared=%ld clobbered=%ld bad_query=%ld strangers=%ld kt=%d\n",
		atomic_load(&bad_stack), atomic_load(&shared_stack), atomic_load(&clobbered),
		atomic_load(&bad_query), atomic_load(&strangers), kt);
	CHECK(atomic_load(&bad_stack) == 0, "every handler ran on its own thread's stack");
	CHECK(atomic_load(&shared_stack) == 0, "no two handlers ran on one stack at once");
	CHECK(atomic_load(&clobbered) == 0, "no handler frame was overwritten");
	CHECK(atomic_load(&bad_query) == 0, "sigaltstack in a handler: SS_ONSTACK, the thread's own");
	CHECK(atomic_load(&strangers) == 0, "no handler ran outside a thread of the program");
	CHECK(quiet == 0, "every thread handled its pthread_kill signals");
	CHECK(!under_shim() || kt < NW, "parked threads held no kernel thread (ran as Gs)");
	return failures != 0;
}
