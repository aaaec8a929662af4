#include <asm/prctl.h>
#include <pthread.h>
#include <sched.h>
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

/* The same with a thread CPU clock read first by both threads, which
 * starts the shim's per-thread CPU accounting: a switch must still make no
 * system call (shim/cpuclock.c). */
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

/* The cost of pointing the FS base at a TCB, which every switch between
 * different Gs pays once: rewrite the current value. */
void bench_fs_write(long iters)
{
	unsigned long fs;
	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	for (long i = 0; i < iters; i++)
		syscall(SYS_arch_prctl, ARCH_SET_FS, fs);
}
