/* The kernel sends the signals of CPU-time limits to the thread whose CPU
 * time made them due, not to the main thread: ITIMER_PROF's SIGPROF (what
 * sampling profilers such as gperftools' run on), ITIMER_VIRTUAL's
 * SIGVTALRM, RLIMIT_CPU's SIGXCPU.  A profiler's handler records the
 * thread it runs on and the context it interrupted, so the samples land on
 * the threads that burn CPU.  Here 4 workers spin on distinct loops while
 * main waits in pthread_join; the handler counts samples per thread and
 * checks the interrupted pc lies in the worker's own loop.  Natively main
 * gets none (it uses no CPU) and each worker about a quarter; the same
 * must hold under the shim, where the signal lands on the M that runs a
 * worker.  There a sample may also interrupt the runtime as it preempts
 * the worker (a SIGPROF that came while the preemption handler blocked
 * it is let in there): 10-45% of them. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"

#define WORKERS 4

static pthread_t ids[WORKERS];
static volatile int started, stop;
static volatile long per_worker[WORKERS], on_main, elsewhere, inloop, inruntime;
static pthread_t main_id;

/* The workers' loop, in a function of its own so that the handler can
 * tell the pc is in it. */
__attribute__((noinline, noclone)) static uint64_t spin(uint64_t x)
{
	while (!stop)
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static uintptr_t interrupted_pc(void *ucv)
{
	ucontext_t *uc = ucv;
#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

static void on_prof(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	pthread_t self = pthread_self();
	if (pthread_equal(self, main_id)) {
		on_main++;
		return;
	}
	for (int i = 0; i < WORKERS; i++)
		if (pthread_equal(self, ids[i])) {
			per_worker[i]++;
			uintptr_t pc = interrupted_pc(uc);
			Dl_info d;
			if (pc >= (uintptr_t)spin && pc < (uintptr_t)spin + 256)
				inloop++;
			else if (dladdr((void *)pc, &d) && d.dli_fname && strstr(d.dli_fname, "libgmpshim"))
				inruntime++; /* the runtime preempting it let the signal in */
			return;
		}
	elsewhere++;
}

static long samples(void)
{
	long n = on_main + elsewhere;
	for (int i = 0; i < WORKERS; i++)
		n += per_worker[i];
	return n;
}

static void *worker(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	return (void *)(uintptr_t)spin((uintptr_t)&arg);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	main_id = pthread_self();
	handle_info(SIGPROF, on_prof, SA_RESTART);
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&ids[i], NULL, worker, NULL);
	while (started < WORKERS)
		usleep(1000);
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } }; /* every 2 ms of the process's CPU */
	setitimer(ITIMER_PROF, &it, NULL);
	/* Main waits in sleeps, using no CPU, until 200 samples came (the
	 * workers' CPU, 0.4 s of it) or 20 s passed, then in the joins. */
	for (int i = 0; i < 200 && samples() < 200; i++)
		usleep(100000);
	stop = 1;
	for (int i = 0; i < WORKERS; i++)
		pthread_join(ids[i], NULL);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_PROF, &off, NULL);

	long total = samples();
	int each = 1;
	for (int i = 0; i < WORKERS; i++)
		each &= per_worker[i] > 0;
	long onworkers = total - on_main - elsewhere;
	fprintf(stderr, "samples: %ld; main %ld, elsewhere %ld, workers %ld %ld %ld %ld, in the loop %ld, in the runtime %ld\n",
		total, on_main, elsewhere, per_worker[0], per_worker[1], per_worker[2], per_worker[3], inloop, inruntime);
	CHECK(total >= 200, "SIGPROF came, about every 2 ms of CPU");
	CHECK(on_main * 20 <= total, "main, asleep, got almost none of them (at most 5%)");
	CHECK(each, "every worker got some");
	CHECK(onworkers > 0 && (inloop + inruntime) * 10 >= onworkers * 9,
	      "they interrupted the worker's own loop (or the runtime preempting it)");
	CHECK(made_as_gs(WORKERS), "the workers were made as Gs (under the shim)");
	CHECK(preempted(), "and the runtime preempted them (under the shim)");
	printf("%d failed\n", failures);
	return failures != 0;
}
