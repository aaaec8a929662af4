// Thin Google Benchmark driver around the C bodies in bodies/.  A body
// runs n operations in one call (so a partner thread is set up once), and
// the reported time is wall-clock time per operation.  Rows whose ratio is
// near 1 run for 100 ms or more: at 5-35 ms (mutex_contended, rwlock and
// cpu_bound did) thread start-up and the VM's jitter decided the ratio.
#include <benchmark/benchmark.h>

#include <chrono>

#include "bodies/bodies.h"

template <void (*Body)(long)>
static void Run(benchmark::State &state)
{
	const long n = state.range(0);
	for (auto _ : state) {
		auto start = std::chrono::steady_clock::now();
		Body(n);
		std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
		state.SetIterationTime(took.count() / n);
	}
}

/* Run after prep(), which is not timed. */
template <void (*Body)(long), void (*Prep)(void)>
static void RunPrepared(benchmark::State &state)
{
	Prep();
	Run<Body>(state);
}

#define GMP_BENCH(name, ops)                                                                        \
	BENCHMARK(Run<bench_##name>)                                                               \
		->Name(#name)                                                                      \
		->Arg(ops)                                                                         \
		->Iterations(1)                                                                    \
		->UseManualTime()                                                                  \
		->Unit(benchmark::kMicrosecond)

GMP_BENCH(create_join, 20000);
GMP_BENCH(cond_pingpong, 20000);
BENCHMARK(RunPrepared<bench_cond_pingpong_forked, bench_cond_pingpong_forked_prepare>)
	->Name("cond_pingpong_forked")
	->Arg(20000)
	->Iterations(1)
	->UseManualTime()
	->Unit(benchmark::kMicrosecond);
GMP_BENCH(cond_broadcast, 5000);
GMP_BENCH(mutex_contended, 10000000);
GMP_BENCH(sched_yield_alone, 200000);
GMP_BENCH(sched_yield_pingpong, 50000);
GMP_BENCH(sched_yield_pingpong_cpuclock, 50000);
GMP_BENCH(sched_yield_pingpong_altstack, 50000);
GMP_BENCH(fs_write, 50000);
GMP_BENCH(sem_pingpong, 20000);
GMP_BENCH(futex_pingpong, 20000);
GMP_BENCH(rwlock_read_mostly, 10000000);
GMP_BENCH(barrier_round, 20000);
GMP_BENCH(timedwait_expired, 200000);
GMP_BENCH(sleepers, 10000);
GMP_BENCH(poll_pingpong, 20000);
GMP_BENCH(select_pingpong, 20000);
GMP_BENCH(cpu_bound, 100000);
GMP_BENCH(spin_pingpong, 500);
GMP_BENCH(cpu_bound_raw_blocked, 100000);
GMP_BENCH(pthread_kill_self, 50000);

BENCHMARK_MAIN();
