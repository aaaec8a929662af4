#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bodies.h"

void bench_sched_yield_alone(long iters)
{
	for (long i = 0; i < iters; i++)
		sched_yield();
}

static void *yielder(void *arg)
{
	volatile int *stop = arg;
	while (!*stop)
		sched_yield();
	return NULL;
}

/* Two threads yielding to each other; under the shim with one P every
 * yield is a G-to-G switch. */
void bench_sched_yield_pingpong(long iters)
{
	volatile int stop = 0;
	pthread_t t;
	pthread_create(&t, NULL, yielder, (void *)&stop);
	for (long i = 0; i < iters; i++)
		sched_yield();
	stop = 1;
	pthread_join(t, NULL);
}

/* The same with a thread CPU clock read first by both threads: under the
 * shim a switch must still make no system call (shim/cpuclock.c). */
static void *clock_yielder(void *arg)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return yielder(arg);
}

void bench_sched_yield_pingpong_cpuclock(long iters)
{
	volatile int stop = 0;
	pthread_t t;
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	pthread_create(&t, NULL, clock_yielder, (void *)&stop);
	for (long i = 0; i < iters; i++)
		sched_yield();
	stop = 1;
	pthread_join(t, NULL);
}

/* The same with an alternate signal stack set by both threads, as every
 * thread of a Rust program has one: under the shim the kernel never
 * learns those stacks (shim/gsigstack.c), so a switch still makes no
 * system call. */
static char altstacks[2][64 * 1024];

static void set_altstack(int i)
{
	stack_t ss = { .ss_sp = altstacks[i], .ss_size = sizeof altstacks[i], .ss_flags = 0 };
	sigaltstack(&ss, NULL);
}

static void unset_altstack(void)
{
	stack_t ss = { .ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE };
	sigaltstack(&ss, NULL);
}

static void *altstack_yielder(void *arg)
{
	set_altstack(1);
	void *r = yielder(arg);
	unset_altstack();
	return r;
}

void bench_sched_yield_pingpong_altstack(long iters)
{
	volatile int stop = 0;
	pthread_t t;
	set_altstack(0);
	pthread_create(&t, NULL, altstack_yielder, (void *)&stop);
	for (long i = 0; i < iters; i++)
		sched_yield();
	stop = 1;
	pthread_join(t, NULL);
	unset_altstack();
}

/* The cost of pointing the thread register at a TCB, which every switch
 * between different Gs pays once: rewrite the current value (x86_64: the
 * FS base through arch_prctl; aarch64: TPIDR_EL0, written directly). */
#if defined(__x86_64__)
#include <asm/prctl.h>
void bench_fs_write(long iters)
{
	unsigned long fs;
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	for (long i = 0; i < iters; i++)
		syscall(SYS_arch_prctl, ARCH_SET_FS, fs);
}
#elif defined(__aarch64__)
void bench_fs_write(long iters)
{
	unsigned long tp;
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
	for (long i = 0; i < iters; i++)
		__asm__ volatile("msr tpidr_el0, %0" ::"r"(tp) : "memory");
}
#else
#error "bench_fs_write: no thread register write for this architecture"
#endif
