/* Benchmark bodies: plain C, each doing `iters` operations of one kind
 * with ordinary pthread calls, so the same binary measures NPTL natively
 * and the shim when preloaded. */
#ifndef GMPBENCH_BODIES_H
#define GMPBENCH_BODIES_H

#ifdef __cplusplus
extern "C" {
#endif

void bench_create_join(long iters);
void bench_cond_pingpong(long iters);
void bench_cond_pingpong_forked_prepare(void);
void bench_cond_pingpong_forked(long iters);
void bench_cond_broadcast(long iters);
void bench_mutex_contended(long iters);
void bench_sched_yield_alone(long iters);
void bench_sched_yield_pingpong(long iters);
void bench_sched_yield_pingpong_cpuclock(long iters);
void bench_sched_yield_pingpong_altstack(long iters);
void bench_fs_write(long iters);
void bench_sem_pingpong(long iters);
void bench_futex_pingpong(long iters);
void bench_rwlock_read_mostly(long iters);
void bench_barrier_round(long iters);
void bench_timedwait_expired(long iters);
void bench_sleepers(long iters);
void bench_poll_pingpong(long iters);
void bench_select_pingpong(long iters);
void bench_spin_pingpong(long iters);
void bench_cpu_bound(long iters);
void bench_cpu_bound_raw_blocked(long iters);
void bench_pthread_kill_self(long iters);

#ifdef __cplusplus
}
#endif

#endif
