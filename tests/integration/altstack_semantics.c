/* sigaltstack as the kernel keeps it, per thread: what a thread reads back
 * (SS_DISABLE, SS_ONSTACK inside a handler on it, SS_AUTODISARM), the
 * errors (EPERM on the stack in use, EINVAL, ENOMEM, EFAULT), what a
 * handler's ucontext says (uc_stack), that returning from a handler puts
 * back the stack it was entered with (rt_sigreturn restores uc_stack,
 * whatever the handler set meanwhile), SS_AUTODISARM's disarming while the
 * handler runs, and each thread its own stack while threads switch, park
 * and block in between, and in the middle of a handler on that stack.
 * Under the shim the kernel never knows these stacks (shim/gsigstack.c):
 * every answer here is the runtime's. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31)
#endif

#define ALTSZ (128 * 1024)
#define NTHREADS 4

struct seen {
	char *lo, *hi;     /* the stack the handler should run on */
	int on;            /* it ran there */
	int flags;         /* sigaltstack's flags read inside */
	void *uc_sp;       /* the handler's uc_stack */
	int uc_flags;
	int eperm;         /* changing the stack inside failed with EPERM */
	int parked_same;   /* still on it after sleeping inside */
	int nested_below;  /* a nested handler ran on it, below the first */
	char *first_frame;
};

static __thread struct seen *cur;
static volatile sig_atomic_t nest_pending;

static int on_range(const void *p, const struct seen *s)
{
	return (const char *)p >= s->lo && (const char *)p < s->hi;
}

static void on_alt(int sig, siginfo_t *si, void *ucv)
{
	(void)si;
	char probe;
	struct seen *s = cur;
	ucontext_t *uc = ucv;
	if (sig == SIGUSR2) {
		s->nested_below = on_range(&probe, s) && &probe < s->first_frame;
		return;
	}
	s->first_frame = &probe;
	s->on = on_range(&probe, s);
	stack_t now;
	sigaltstack(NULL, &now);
	s->flags = now.ss_flags;
	s->uc_sp = uc->uc_stack.ss_sp;
	s->uc_flags = uc->uc_stack.ss_flags;
	stack_t other = { .ss_sp = s->lo, .ss_size = ALTSZ / 2, .ss_flags = 0 };
	s->eperm = sigaltstack(&other, NULL) == -1 && errno == EPERM;
	/* Parked in the handler (under the shim the thread may resume on
	 * another M): still on the same stack, which nothing else touched. */
	usleep(2000);
	sched_yield();
	s->parked_same = on_range(&probe, s) && cur == s;
	if (nest_pending) {
		nest_pending = 0;
		pthread_kill(pthread_self(), SIGUSR2);
	}
}

/* A handler without SA_ONSTACK that sets another alternate stack: the
 * one the thread had comes back when it returns. */
static char *swap_to;
static void on_swap(int sig)
{
	(void)sig;
	stack_t b = { .ss_sp = swap_to, .ss_size = ALTSZ, .ss_flags = 0 };
	sigaltstack(&b, NULL);
}

static char *map_stack(void)
{
	return mmap(NULL, ALTSZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

struct result {
	int none_disabled, set_read, errors, handler, restored, autodisarm, threads_own;
};

static void *worker(void *arg)
{
	struct result *r = arg;
	stack_t o;
	memset(&o, 0, sizeof o);
	r->none_disabled = sigaltstack(NULL, &o) == 0 && (o.ss_flags & SS_DISABLE) && o.ss_size == 0;

	char *a = map_stack();
	stack_t ss = { .ss_sp = a, .ss_size = ALTSZ, .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	usleep(1000); /* switched out and in */
	sigaltstack(NULL, &o);
	r->set_read = o.ss_sp == a && o.ss_size == ALTSZ && o.ss_flags == 0;

	stack_t small = { .ss_sp = a, .ss_size = 1024, .ss_flags = 0 };
	stack_t badflags = { .ss_sp = a, .ss_size = ALTSZ, .ss_flags = 0x1234 };
	int e1 = sigaltstack(&small, NULL) == -1 && errno == ENOMEM;
	int e2 = sigaltstack(&badflags, NULL) == -1 && errno == EINVAL;
	int e3 = sigaltstack((const stack_t *)8, NULL) == -1 && errno == EFAULT;
	sigaltstack(NULL, &o);
	r->errors = e1 && e2 && e3 && o.ss_sp == a && o.ss_size == ALTSZ;

	struct seen s = { .lo = a, .hi = a + ALTSZ };
	cur = &s;
	nest_pending = 1;
	pthread_kill(pthread_self(), SIGUSR1);
	r->handler = s.on && s.flags == SS_ONSTACK && s.uc_sp == a && s.uc_flags == 0 && s.eperm && s.parked_same &&
		     s.nested_below;
	sigaltstack(NULL, &o);
	r->handler &= o.ss_sp == a && o.ss_flags == 0;

	swap_to = map_stack();
	raise(SIGWINCH);
	sigaltstack(NULL, &o);
	r->restored = o.ss_sp == a && o.ss_size == ALTSZ;

	/* SS_AUTODISARM: inside, the thread has none (and may set one); on
	 * return it has it again, flag and all. */
	stack_t ad = { .ss_sp = a, .ss_size = ALTSZ, .ss_flags = SS_AUTODISARM };
	int adset = sigaltstack(&ad, NULL) == 0;
	sigaltstack(NULL, &o);
	int adread = o.ss_sp == a && o.ss_flags == (int)SS_AUTODISARM;
	memset(&s, 0, sizeof s);
	s.lo = a;
	s.hi = a + ALTSZ;
	pthread_kill(pthread_self(), SIGUSR1);
	sigaltstack(NULL, &o);
	r->autodisarm = adset && adread && s.on && (s.flags & SS_DISABLE) && !s.eperm && s.uc_sp == a &&
			s.uc_flags == (int)SS_AUTODISARM && o.ss_sp == a && o.ss_flags == (int)SS_AUTODISARM;

	stack_t off = { .ss_flags = SS_DISABLE };
	sigaltstack(&off, NULL);
	munmap(swap_to, ALTSZ);
	munmap(a, ALTSZ);
	return NULL;
}

/* Threads with stacks of their own, signalled while they compute, park and
 * sleep: each handler on its thread's stack. */
static volatile int stop;
static int own_ok[NTHREADS], own_runs[NTHREADS];
static __thread int my_index;
static char *own_stack[NTHREADS];
static int ready;

static void on_own(int sig)
{
	(void)sig;
	char probe;
	int i = my_index;
	own_runs[i]++;
	if (&probe < own_stack[i] || &probe >= own_stack[i] + ALTSZ)
		own_ok[i] = 0;
}

static void *own_worker(void *arg)
{
	int i = (int)(intptr_t)arg;
	my_index = i;
	own_ok[i] = 1;
	own_stack[i] = map_stack();
	stack_t ss = { .ss_sp = own_stack[i], .ss_size = ALTSZ, .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	__atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
	unsigned long x = 1;
	while (!stop) {
		for (int k = 0; k < 20000; k++)
			x = x * 6364136223846793005ul + 1;
		usleep(100);
	}
	return (void *)(x & 1);
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_alt;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	struct sigaction sw;
	memset(&sw, 0, sizeof sw);
	sw.sa_handler = on_swap;
	sigaction(SIGWINCH, &sw, NULL);

	struct result r;
	memset(&r, 0, sizeof r);
	pthread_t t;
	pthread_create(&t, NULL, worker, &r);
	pthread_join(t, NULL);
	CHECK(r.none_disabled, "a new thread has no alternate stack (SS_DISABLE)");
	CHECK(r.set_read, "the stack set reads back after a switch");
	CHECK(r.errors, "ENOMEM, EINVAL and EFAULT, the stack unchanged");
	CHECK(r.handler, "SA_ONSTACK handler: on it, SS_ONSTACK, uc_stack, EPERM, parks, nests");
	CHECK(r.restored, "a stack set in a handler is undone by its return");
	/* qemu-user's own sigaltstack does not disarm (its native run fails). */
	if (getenv("GMP_TEST_EMULATOR_THREADS"))
		CHECK(1, "SS_AUTODISARM: not under qemu-user");
	else
		CHECK(r.autodisarm, "SS_AUTODISARM: none inside, back on return");

	struct sigaction so;
	memset(&so, 0, sizeof so);
	so.sa_handler = on_own;
	so.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &so, NULL);
	pthread_t w[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&w[i], NULL, own_worker, (void *)(intptr_t)i);
	while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < NTHREADS)
		usleep(1000);
	for (int round = 0; round < 200; round++) {
		usleep(500);
		pthread_kill(w[round % NTHREADS], SIGUSR1);
	}
	stop = 1;
	int all = 1;
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(w[i], NULL);
		all &= own_ok[i] && own_runs[i] > 0;
	}
	CHECK(all, "threads that switch and sleep: every handler on its own stack");
	CHECK(made_as_gs(1 + NTHREADS), "the threads were made as Gs under the shim");
	return failures != 0;
}
