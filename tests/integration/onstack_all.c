/* A program that rewrites every installed signal action with SA_ONSTACK
 * and gives each thread an alternate signal stack, as Erlang's beam.smp
 * does at start-up: once through glibc's __sigaction (beam's own sigaction
 * wrapper reaches it with dlsym(RTLD_NEXT)), once with raw rt_sigaction
 * system calls, which read and rewrite the kernel's actions themselves
 * (under the shim, the runtime's own handler among them).  Then threads
 * compute with their alternate stacks set, preempted many times under the
 * shim: a preemption taken on an alternate stack once switched the thread
 * out with its frames there, and the next signal on that stack overwrote
 * them (beam.smp crashed with a jump to 0). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define NTHREADS 6

extern int __sigaction(int, const struct sigaction *, struct sigaction *);

/* The kernel's struct sigaction (x86_64 and aarch64 alike). */
struct ksigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

static volatile int stop;
static volatile sig_atomic_t usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

/* Adds SA_ONSTACK to every action that runs a function; returns how many
 * it changed. */
static int onstack_all(int raw)
{
	int n = 0;
	for (int s = 1; s < 65; s++) {
		if (s == SIGKILL || s == SIGSTOP)
			continue;
		if (raw) {
			struct ksigaction k;
			if (syscall(SYS_rt_sigaction, s, NULL, &k, 8) != 0)
				continue;
			if (k.handler == SIG_DFL || k.handler == SIG_IGN || (k.flags & SA_ONSTACK))
				continue;
			k.flags |= SA_ONSTACK;
			n += syscall(SYS_rt_sigaction, s, &k, NULL, 8) == 0;
		} else {
			struct sigaction sa;
			if (__sigaction(s, NULL, &sa) != 0)
				continue;
			if (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN || (sa.sa_flags & SA_ONSTACK))
				continue;
			sa.sa_flags |= SA_ONSTACK;
			n += __sigaction(s, &sa, NULL) == 0;
		}
	}
	return n;
}

static void *worker(void *arg)
{
	stack_t ss = { .ss_sp = malloc(SIGSTKSZ * 4), .ss_size = SIGSTKSZ * 4, .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	uint64_t x = (uintptr_t)arg | 1;
	while (!stop)
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	return (void *)(uintptr_t)(x & 1);
}

static void compute(void)
{
	pthread_t t[NTHREADS];
	stop = 0;
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
	for (int i = 0; i < 10; i++) {
		pause_us(test_work(100000));
		pthread_kill(t[i % NTHREADS], SIGUSR1);
	}
	stop = 1;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	CHECK(onstack_all(0) >= 1, "__sigaction: the program's own action rewritten with SA_ONSTACK");
	compute();
	CHECK(usr1 == 10, "threads with alternate stacks compute and take their signals");
	onstack_all(1);
	compute();
	CHECK(usr1 == 20, "... after raw rt_sigaction rewrote every action the kernel has");
	CHECK(made_as_gs(2 * NTHREADS), "the threads were made as Gs under the shim");
	return failures != 0;
}
