/* CPU-bound work and signals: what preemption and per-thread signal
 * delivery cost. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "bodies.h"

#define WORKERS 4

static volatile uint64_t sink;

/* One unit of work: a chain of dependent arithmetic with no calls. */
static uint64_t unit(uint64_t x)
{
	for (int i = 0; i < 2000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

static void *worker(void *arg)
{
	long n = (long)arg;
	uint64_t x = (uintptr_t)&n | 1;
	for (long i = 0; i < n; i++)
		x = unit(x);
	sink += x;
	return NULL;
}

/* iters units shared by 4 threads that never block: more threads than
 * Ps, so under the shim only preemption interleaves them. */
void bench_cpu_bound(long iters)
{
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(iters / WORKERS));
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
}

/* A thread asleep for good in a read the shim never sees: an inline
 * system call on a pipe made the same way, as a static library or
 * liburing's wait would be.  Started once, left asleep. */
static long raw3(long nr, long a1, long a2, long a3)
{
	long r;
#if defined(__x86_64__)
	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a1), "S"(a2), "d"(a3) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a1, x1 __asm__("x1") = a2, x2 __asm__("x2") = a3;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	r = x0;
#else
#error "raw3: no inline system call for this architecture"
#endif
	return r;
}

static void *raw_sleeper(void *arg)
{
	(void)arg;
	int fd[2];
	char c;
	if (raw3(SYS_pipe2, (long)fd, 0, 0) == 0)
		raw3(SYS_read, fd[0], (long)&c, 1);
	return NULL;
}

static void start_raw_sleeper(void)
{
	pthread_t t;
	pthread_create(&t, NULL, raw_sleeper, NULL);
	pthread_detach(t);
}

/* cpu_bound's work while another thread sleeps in a raw system call: with
 * 2 Ps, a P kept by that call would halve the throughput. */
void bench_cpu_bound_raw_blocked(long iters)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, start_raw_sleeper);
	bench_cpu_bound(iters);
}

static volatile int handled;

static void on_signal(int sig)
{
	(void)sig;
	handled++;
}

/* A signal sent to the calling thread and handled there. */
void bench_pthread_kill_self(long iters)
{
	struct sigaction sa = { 0 }, old;
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, &old);
	pthread_t self = pthread_self();
	for (long i = 0; i < iters; i++)
		pthread_kill(self, SIGUSR1);
	sigaction(SIGUSR1, &old, NULL);
}

/* Two threads that hand a turn to each other through memory, each
 * spinning with the CPU's spin-wait hint until the turn is its own (an
 * OpenMP ordered loop or barrier under an active wait policy), iters
 * hand-offs.  Where both run at once a hand-off costs a cache line's
 * trip; on one CPU each one waits until the spinner is switched out. */
static volatile long turn;

static void spin_hint(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

static void *spin_partner(void *arg)
{
	long n = (long)arg;
	for (long i = 1; i < n; i += 2) {
		while (turn != i)
			spin_hint();
		turn = i + 1;
	}
	return NULL;
}

void bench_spin_pingpong(long iters)
{
	turn = 0;
	pthread_t t;
	pthread_create(&t, NULL, spin_partner, (void *)iters);
	for (long i = 0; i < iters; i += 2) {
		while (turn != i)
			spin_hint();
		turn = i + 1;
	}
	pthread_join(t, NULL);
}
