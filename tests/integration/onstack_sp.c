/* Code that runs on a stack of its own and lets nothing be written below
 * its stack pointer, as beam.smp's JIT runs Erlang code on the Erlang
 * process's stack, right above its heap: such a program gives every
 * thread an alternate stack and every action SA_ONSTACK, so that no
 * signal frame lands there.  Under the shim the runtime's own handler
 * (preemption requests) had no SA_ONSTACK and wrote its frames below that
 * stack pointer: beam.smp's heaps were overwritten (it crashed in 8 runs
 * of 12 at 1 P).  Here threads with alternate stacks spin on a stack whose
 * bytes below the stack pointer are a known pattern, which must survive,
 * while the runtime preempts them between spins and signals them. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NTHREADS 4
#define BELOW (32 * 1024)
#define PATTERN 0xa5

static volatile int stop;
static int usr1;
static long clobbered;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	__atomic_add_fetch(&usr1, 1, __ATOMIC_RELAXED);
}

/* Spins n times with the stack pointer at sp, touching no memory but
 * *flag (read); nothing of the thread's may go below sp meanwhile. */
static void spin_at(char *sp, long n, volatile int *flag)
{
#if defined(__x86_64__)
	__asm__ volatile("mov %%rsp, %%rbx\n\t"
			 "mov %0, %%rsp\n"
			 "1:\n\t"
			 "mov (%2), %%eax\n\t"
			 "test %%eax, %%eax\n\t"
			 "jnz 2f\n\t"
			 "dec %1\n\t"
			 "jnz 1b\n"
			 "2:\n\t"
			 "mov %%rbx, %%rsp"
			 : "+r"(sp), "+r"(n)
			 : "r"(flag)
			 : "rax", "rbx", "memory", "cc");
#elif defined(__aarch64__)
	__asm__ volatile("mov x19, sp\n\t"
			 "mov sp, %0\n"
			 "1:\n\t"
			 "ldr w9, [%2]\n\t"
			 "cbnz w9, 2f\n\t"
			 "subs %1, %1, #1\n\t"
			 "b.ne 1b\n"
			 "2:\n\t"
			 "mov sp, x19"
			 : "+r"(sp), "+r"(n)
			 : "r"(flag)
			 : "x9", "x19", "memory", "cc");
#else
#error "an architecture this test knows"
#endif
}

static void *worker(void *arg)
{
	(void)arg;
	stack_t ss = { .ss_sp = malloc(SIGSTKSZ * 4), .ss_size = SIGSTKSZ * 4, .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	char *area = aligned_alloc(64, BELOW + 256);
	char *sp = area + BELOW; /* 16-byte aligned */
	memset(area, PATTERN, BELOW);
	long bad = 0;
	while (!stop && !bad) {
		spin_at(sp, test_work(200000), &stop);
		for (int i = 0; i < BELOW; i++)
			bad += (unsigned char)area[i] != PATTERN;
	}
	__atomic_add_fetch(&clobbered, bad, __ATOMIC_RELAXED);
	free(area);
	return NULL;
}

int main(void)
{
	handle_info(SIGUSR1, on_usr1, SA_ONSTACK);
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 20; i++) {
		pause_us(test_work(20000));
		pthread_kill(t[i % NTHREADS], SIGUSR1);
		/* Taken before the next: a second one pending on a thread the
		 * kernel has not run yet (a busy machine) would merge with it. */
		for (int k = 0; k < 5000 && __atomic_load_n(&usr1, __ATOMIC_RELAXED) <= i; k++)
			pause_us(1000);
	}
	stop = 1;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	CHECK(clobbered == 0, "nothing was written below the stack pointer of code on a stack of its own");
	CHECK(usr1 == 20, "the threads took their signals");
	CHECK(made_as_gs(NTHREADS) && preempted(), "the threads were made as Gs and preempted under the shim");
	return failures != 0;
}
