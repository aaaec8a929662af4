/* Barriers, rwlocks and spinlocks with more threads than Ps: each round
 * has exactly one serial thread, readers never see a writer's update
 * half-done, writers relocking get EDEADLK. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define NTHREADS 16
#define ROUNDS 200

static pthread_barrier_t bar;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static long rw_value, spin_value, torn;
static int serials;

static void *worker(void *arg)
{
	for (int r = 0; r < ROUNDS; r++) {
		if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
		if (r % 4 == 0) {
			pthread_rwlock_wrlock(&rw);
			long v = rw_value;
			sched_yield();
			rw_value = v + 1;
			pthread_rwlock_unlock(&rw);
		} else {
			pthread_rwlock_rdlock(&rw);
			long v = rw_value;
			sched_yield();
			if (v != rw_value)
				__atomic_add_fetch(&torn, 1, __ATOMIC_RELAXED);
			pthread_rwlock_unlock(&rw);
		}
		pthread_spin_lock(&spin);
		spin_value++;
		pthread_spin_unlock(&spin);
	}
	return arg;
}

int main(void)
{
	pthread_barrier_init(&bar, NULL, NTHREADS);
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	pthread_rwlock_wrlock(&rw);
	int relock = pthread_rwlock_wrlock(&rw);
	int busy = pthread_rwlock_tryrdlock(&rw);
	pthread_rwlock_unlock(&rw);
	printf("serial threads: %d (rounds %d)\n", serials, ROUNDS);
	printf("rwlock writes: %ld, torn reads: %ld\n", rw_value, torn);
	printf("spinlock increments: %ld\n", spin_value);
	printf("wrlock twice: %s, tryrdlock under writer: %s\n", relock == EDEADLK ? "EDEADLK" : "other",
	       busy == EBUSY ? "EBUSY" : "other");
	pthread_barrier_destroy(&bar);
	return !(serials == ROUNDS && torn == 0 && spin_value == (long)NTHREADS * ROUNDS);
}
