/* Threads that never call anything must not starve each other or main.
 * With one P (GMP_MAXPROCS=1) only preemption lets any of this finish:
 * main busy-waits for every spinner's progress, and two threads hand a
 * token back and forth through volatile variables alone. */
#include <pthread.h>
#include <stdio.h>

#include "check.h"

#define SPINNERS 4
#define ROUNDS 40

static volatile unsigned long progress[SPINNERS];
static volatile int stop;
static volatile int token; /* whose turn: 0 or 1 */
static volatile int passes[2];

/* Without preemption (GMPDEBUG=asyncpreemptoff=1) these loops never end:
 * each gives up after some 10-30 s of the CPU's own counter, read without a
 * call so that the give-up cannot itself hand over the P. */
#if defined(__x86_64__)
#include <x86intrin.h>
static unsigned long long ticks(void)
{
	return __rdtsc();
}

static unsigned long long give_up_ticks(void)
{
	return 30000000000ULL;
}
#elif defined(__aarch64__)
static unsigned long long ticks(void)
{
	unsigned long long v;
	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

static unsigned long long give_up_ticks(void)
{
	unsigned long long hz;
	__asm__("mrs %0, cntfrq_el0" : "=r"(hz));
	return 20 * hz;
}
#else
#error "preempt_spin: no call-free clock for this architecture"
#endif
static unsigned long long give_up;

static int gave_up(void)
{
	return ticks() > give_up;
}

static void *spin(void *arg)
{
	long i = (long)arg;
	while (!stop)
		progress[i]++;
	return NULL;
}

/* Waits for its turn by spinning, takes it, gives the token away. */
static void *pingpong(void *arg)
{
	int me = (int)(long)arg;
	for (int r = 0; r < ROUNDS; r++) {
		while (token != me)
			if (gave_up())
				return NULL;
		passes[me]++;
		token = !me;
	}
	return NULL;
}

int main(void)
{
	give_up = ticks() + give_up_ticks();
	pthread_t t[SPINNERS];
	for (long i = 0; i < SPINNERS; i++)
		pthread_create(&t[i], NULL, spin, (void *)i);
	/* No call inside the loop: main gives up its P only if preempted. */
	for (;;) {
		int all = 1;
		for (int i = 0; i < SPINNERS; i++)
			all &= progress[i] >= 1000000;
		if (all || gave_up())
			break;
	}
	int progressed = 1;
	for (int i = 0; i < SPINNERS; i++)
		progressed &= progress[i] >= 1000000;
	stop = 1;
	for (int i = 0; i < SPINNERS; i++)
		pthread_join(t[i], NULL);
	CHECK(progressed, "every spinner progressed while main spun");

	give_up = ticks() + give_up_ticks();
	pthread_t a, b;
	pthread_create(&a, NULL, pingpong, (void *)0L);
	pthread_create(&b, NULL, pingpong, (void *)1L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	CHECK(passes[0] == ROUNDS && passes[1] == ROUNDS, "spinning ping-pong completed 40 rounds each");
	CHECK(preempted(), "the spinners were preempted (under the shim, by its count)");
	return failures != 0;
}
