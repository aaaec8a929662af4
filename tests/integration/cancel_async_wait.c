/* Cancellation of a thread blocked in a wait that is no cancellation
 * point.  With PTHREAD_CANCEL_ASYNCHRONOUS, NPTL acts at once wherever the
 * thread waits (a mutex it or another thread holds, an rwlock, a barrier,
 * pthread_once, a spin lock): the cleanup handler runs and the join sees
 * PTHREAD_CANCELED.  A deferred cancellation that arrives while a
 * condvar wait relocks its mutex acts once the mutex is free.  Under the
 * shim the cancel wakes the parked G; each wait must then act, not park
 * again to be woken again by the still-pending cancel (a livelock that
 * burned a CPU and never let the join return): the parks during each case
 * are counted and must stay few. */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../shim/gmpshim.h"
#include "check.h"

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
/* One per case: a cancelled waiter may leave glibc's lock unusable (async
 * cancellation inside it is undefined; only its result is checked). */
static pthread_rwlock_t rw_r = PTHREAD_RWLOCK_INITIALIZER, rw_w = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t barrier;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static sem_t once_go;
static pthread_spinlock_t spin;
static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile int cleaned, ready;

static void cleanup(void *arg)
{
	(void)arg;
	cleaned = 1;
}

static void go_async(void)
{
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	ready = 1;
}

static void *on_mutex(void *arg)
{
	pthread_cleanup_push(cleanup, NULL);
	go_async();
	pthread_mutex_lock(&held);
	pthread_cleanup_pop(0);
	return arg;
}

static void *on_own_mutex(void *arg)
{
	pthread_mutex_t mine = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&mine);
	pthread_cleanup_push(cleanup, NULL);
	go_async();
	pthread_mutex_lock(&mine); /* a normal mutex: deadlocks, as NPTL's */
	pthread_cleanup_pop(0);
	return arg;
}

static void *on_wrlock(void *arg)
{
	pthread_cleanup_push(cleanup, NULL);
	go_async();
	pthread_rwlock_wrlock(&rw_r);
	pthread_cleanup_pop(0);
	return arg;
}

static void *on_rdlock(void *arg)
{
	pthread_cleanup_push(cleanup, NULL);
	go_async();
	pthread_rwlock_rdlock(&rw_w);
	pthread_cleanup_pop(0);
	return arg;
}

static void *on_barrier(void *arg)
{
	pthread_cleanup_push(cleanup, NULL);
	go_async();
	pthread_barrier_wait(&barrier);
	pthread_cleanup_pop(0);
	return arg;
}

static void slow_init(void)
{
	sem_wait(&once_go);
}

static void *init_once(void *arg)
{
	pthread_once(&once, slow_init);
	return arg;
}

static void *on_once(void *arg)
{
	pthread_cleanup_push(cleanup, NULL);
	go_async();
	pthread_once(&once, slow_init);
	pthread_cleanup_pop(0);
	return arg;
}

static void *on_spin(void *arg)
{
	pthread_cleanup_push(cleanup, NULL);
	go_async();
	pthread_spin_lock(&spin);
	pthread_cleanup_pop(0);
	return arg;
}

static void unlock_cm(void *arg)
{
	(void)arg;
	cleaned = 1;
	pthread_mutex_unlock(&cm);
}

/* Deferred: the cancel arrives while the wait relocks a mutex main holds. */
static void *on_cond_relock(void *arg)
{
	pthread_mutex_lock(&cm);
	pthread_cleanup_push(unlock_cm, NULL);
	ready = 1;
	for (;;)
		pthread_cond_wait(&cv, &cm);
	pthread_cleanup_pop(1);
	return arg;
}

static uint64_t parks(void)
{
	struct gmpshim_stats st;
	uint64_t n = 0;
	if (gmpshim_stats(&st) != 0)
		return 0;
	for (int i = 0; i < GMPSHIM_NWAIT; i++)
		n += st.park[i];
	return n;
}

static void run(const char *name, void *(*fn)(void *))
{
	pthread_t t;
	void *res;
	char what[96];
	cleaned = ready = 0;
	pthread_create(&t, NULL, fn, NULL);
	while (!ready)
		usleep(1000);
	usleep(50000); /* it is blocked by now (if not, the cancel acts all the same) */
	uint64_t before = parks();
	if (fn == on_cond_relock) {
		pthread_mutex_lock(&cm);
		pthread_cond_signal(&cv);
		pthread_cancel(t);
		usleep(50000); /* it is back on the mutex, which main holds */
		pthread_mutex_unlock(&cm);
	} else {
		pthread_cancel(t);
	}
	pthread_join(t, &res);
	uint64_t n = parks() - before;
	snprintf(what, sizeof what, "%s: cancelled, cleanup handler ran", name);
	CHECK(res == PTHREAD_CANCELED && cleaned, what);
	/* A handful: the join, the sleeps, the cancelled wait's own.  The
	 * livelock made millions. */
	snprintf(what, sizeof what, "%s: no park/wake loop", name);
	CHECK(n < 20, what);
	if (n >= 20)
		fprintf(stderr, "%s: %llu parks\n", name, (unsigned long long)n);
}

int main(void)
{
	pthread_t t;
	pthread_mutex_lock(&held);
	run("mutex held by another thread", on_mutex);
	pthread_mutex_unlock(&held);
	run("normal mutex the thread holds itself", on_own_mutex);

	pthread_rwlock_rdlock(&rw_r);
	run("rwlock wrlock against a reader", on_wrlock);
	pthread_rwlock_wrlock(&rw_w);
	run("rwlock rdlock against a writer", on_rdlock);

	pthread_barrier_init(&barrier, NULL, 2);
	run("barrier", on_barrier);

	sem_init(&once_go, 0, 0);
	pthread_create(&t, NULL, init_once, NULL);
	usleep(20000);
	run("pthread_once while another thread runs the init", on_once);
	sem_post(&once_go);
	pthread_join(t, NULL);

	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_lock(&spin);
	run("spin lock", on_spin);
	pthread_spin_unlock(&spin);

	run("deferred, during a condvar wait's relock", on_cond_relock);
	return failures != 0;
}
