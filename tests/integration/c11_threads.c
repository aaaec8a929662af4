/* C11 <threads.h>: glibc builds it on its pthread code with internal
 * calls, so the shim must take each entry point itself.  Threads return
 * ints, mutexes (recursive too), condvars, thread-specific storage with
 * destructors, call_once, sleeps; under the shim no kernel thread per
 * thread. */
#include <errno.h>
#include <stdatomic.h>
#include <threads.h>
#include <time.h>

#include "check.h"

#define N 60

static mtx_t lock;
static cnd_t cond;
static int go, arrived;
static tss_t key;
static atomic_int destroyed, onces;
static once_flag once = ONCE_FLAG_INIT;

static void dtor(void *p)
{
	(void)p;
	destroyed++;
}

static void init_once(void)
{
	onces++;
}

static int worker(void *arg)
{
	int id = (int)(long)arg;
	call_once(&once, init_once);
	tss_set(key, &go);
	mtx_lock(&lock);
	arrived++;
	cnd_broadcast(&cond);
	while (!go)
		cnd_wait(&cond, &lock);
	mtx_unlock(&lock);
	return tss_get(key) == &go ? -id : 1000;
}

static int exits_early(void *arg)
{
	(void)arg;
	thrd_exit(-77);
}

int main(void)
{
	CHECK(mtx_init(&lock, mtx_plain) == thrd_success, "mtx_init plain");
	CHECK(cnd_init(&cond) == thrd_success, "cnd_init");
	CHECK(tss_create(&key, dtor) == thrd_success, "tss_create");
	thrd_t t[N];
	int created = 0;
	for (int i = 0; i < N; i++)
		created += thrd_create(&t[i], worker, (void *)(long)(i + 1)) == thrd_success;
	CHECK(created == N, "thrd_create x60");
	mtx_lock(&lock);
	while (arrived < N)
		cnd_wait(&cond, &lock);
	int kt = kernel_threads();
	go = 1;
	cnd_broadcast(&cond);
	mtx_unlock(&lock);
	CHECK(threads_are_gs(kt, N + 1), "60 waiting C11 threads: Gs on a few kernel threads under the shim");
	int sum = 0, res;
	for (int i = 0; i < N; i++)
		if (thrd_join(t[i], &res) == thrd_success)
			sum += res;
	CHECK(sum == -(N * (N + 1) / 2), "thrd_join returns each thread's negative int");
	CHECK(destroyed == N, "tss destructors ran once per thread");
	CHECK(onces == 1, "call_once ran once");

	thrd_t e;
	thrd_create(&e, exits_early, NULL);
	CHECK(thrd_join(e, &res) == thrd_success && res == -77, "thrd_exit(-77) reaches thrd_join");

	mtx_t rec;
	CHECK(mtx_init(&rec, mtx_timed | mtx_recursive) == thrd_success, "mtx_init timed|recursive");
	CHECK(mtx_lock(&rec) == thrd_success && mtx_trylock(&rec) == thrd_success, "recursive relock");
	mtx_unlock(&rec);
	mtx_unlock(&rec);
	mtx_destroy(&rec);

	mtx_lock(&lock);
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	ts.tv_nsec += 20000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	CHECK(cnd_timedwait(&cond, &lock, &ts) == thrd_timedout, "cnd_timedwait: thrd_timedout");
	mtx_unlock(&lock);
	CHECK(mtx_trylock(&lock) == thrd_success, "mtx_trylock of a free mutex");
	CHECK(mtx_timedlock(&lock, &ts) == thrd_timedout, "mtx_timedlock of a held mutex: thrd_timedout");
	mtx_unlock(&lock);

	struct timespec d = { 0, 1000000 }, rem;
	CHECK(thrd_sleep(&d, &rem) == 0, "thrd_sleep 1ms");
	CHECK(thrd_equal(thrd_current(), thrd_current()), "thrd_equal(thrd_current(), thrd_current())");
	CHECK(thrd_create(&e, exits_early, NULL) == thrd_success && thrd_detach(e) == thrd_success, "thrd_detach");
	thrd_yield();
	tss_delete(key);
	cnd_destroy(&cond);
	mtx_destroy(&lock);
	return failures != 0;
}
