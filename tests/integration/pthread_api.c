/* The rest of the thread API, with the results and error codes NPTL gives:
 * join/detach errors, tryjoin/timedjoin, pthread_once, thread-specific
 * keys and their destructors, thread names, attributes and stacks. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* ---- a gate threads can wait at ---- */

struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int open;
	int arrived;
};
#define GATE_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 }

static void gate_wait(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->arrived++;
	pthread_cond_broadcast(&g->cv);
	while (!g->open)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

static void gate_await_arrivals(struct gate *g, int n)
{
	pthread_mutex_lock(&g->mu);
	while (g->arrived < n)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->open = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

static int64_t ns_between(struct timespec a, struct timespec b)
{
	return (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
}

/* ---- join and detach ---- */

static struct gate detached_gate = GATE_INIT;
static int detached_ran;

static void *wait_detached_gate(void *arg)
{
	gate_wait(&detached_gate);
	__atomic_add_fetch(&detached_ran, 1, __ATOMIC_RELAXED);
	return arg;
}

static struct gate join_gate = GATE_INIT;
static void *wait_join_gate(void *arg)
{
	gate_wait(&join_gate);
	return arg;
}

static void *ret_arg(void *arg)
{
	return arg;
}

static void *join_self(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)pthread_join(pthread_self(), NULL);
}

static void test_join_detach(void)
{
	pthread_t d1, d2, w;
	void *r;
	pthread_attr_t da;
	pthread_attr_init(&da);
	pthread_attr_setdetachstate(&da, PTHREAD_CREATE_DETACHED);
	CHECK(pthread_create(&d1, &da, wait_detached_gate, NULL) == 0, "create a detached thread via attr");
	pthread_attr_destroy(&da);
	pthread_create(&d2, NULL, wait_detached_gate, NULL);
	gate_await_arrivals(&detached_gate, 2); /* both alive and waiting */

	CHECK(pthread_join(d1, NULL) == EINVAL, "join a thread created detached: EINVAL");
	CHECK(pthread_detach(d1) == EINVAL, "detach a thread created detached: EINVAL");
	pthread_attr_t ga;
	int ds = -1;
	CHECK(pthread_getattr_np(d1, &ga) == 0 && pthread_attr_getdetachstate(&ga, &ds) == 0 &&
		      ds == PTHREAD_CREATE_DETACHED,
	      "getattr_np of a detached thread: PTHREAD_CREATE_DETACHED");
	pthread_attr_destroy(&ga);
	CHECK(pthread_detach(d2) == 0, "detach a joinable thread: 0");
	CHECK(pthread_detach(d2) == EINVAL, "detach it twice: EINVAL");
	CHECK(pthread_join(d2, NULL) == EINVAL, "join it after detach: EINVAL");
	gate_open(&detached_gate); /* they end on their own; never touched again */

	CHECK(pthread_join(pthread_self(), NULL) == EDEADLK, "main joins itself: EDEADLK");
	pthread_create(&w, NULL, join_self, NULL);
	pthread_join(w, &r);
	CHECK((intptr_t)r == EDEADLK, "a thread joins itself: EDEADLK");

	pthread_create(&w, NULL, wait_join_gate, (void *)7);
	CHECK(pthread_tryjoin_np(w, &r) == EBUSY, "tryjoin a running thread: EBUSY");
	struct timespec t0, t1;
	clock_gettime(CLOCK_REALTIME, &t0);
	struct timespec ts = deadline_in(CLOCK_REALTIME, 30 * 1000 * 1000);
	int e = pthread_timedjoin_np(w, &r, &ts);
	clock_gettime(CLOCK_REALTIME, &t1);
	CHECK(e == ETIMEDOUT, "timedjoin a blocked thread, 30 ms: ETIMEDOUT");
	CHECK(ns_between(t0, t1) >= 29 * 1000 * 1000, "timedjoin waited until its deadline");
	CHECK(pthread_tryjoin_np(w, &r) == EBUSY, "still EBUSY after the timeout");
	gate_open(&join_gate);
	ts = deadline_in(CLOCK_REALTIME, 10 * 1000000000L);
	r = NULL;
	CHECK(pthread_timedjoin_np(w, &r, &ts) == 0 && (intptr_t)r == 7, "timedjoin after release: 0 and the value");

	pthread_create(&w, NULL, ret_arg, (void *)9);
	r = NULL;
	int spins = 0;
	while ((e = pthread_tryjoin_np(w, &r)) == EBUSY && spins++ < 1000000)
		sched_yield();
	CHECK(e == 0 && (intptr_t)r == 9, "tryjoin of a finished thread: 0 and the value");
	/* The detached threads' completion is checked at the end of main. */
}

/* ---- pthread_once ---- */

#define ONCE_THREADS 32
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static void once_fn(void)
{
	struct timespec ts = { 0, 2000000 };
	nanosleep(&ts, NULL); /* others arrive while it runs */
	__atomic_add_fetch(&once_runs, 1, __ATOMIC_RELAXED);
}
static void *call_once(void *arg)
{
	(void)arg;
	if (pthread_once(&once, once_fn) != 0)
		return (void *)-1;
	return (void *)(intptr_t)__atomic_load_n(&once_runs, __ATOMIC_RELAXED);
}

static void test_once(void)
{
	pthread_t o[ONCE_THREADS];
	for (int i = 0; i < ONCE_THREADS; i++)
		pthread_create(&o[i], NULL, call_once, NULL);
	int all_saw_one = 1;
	for (int i = 0; i < ONCE_THREADS; i++) {
		void *r;
		pthread_join(o[i], &r);
		all_saw_one &= (intptr_t)r == 1;
	}
	CHECK(once_runs == 1 && all_saw_one, "pthread_once from 32 threads: runs once, all return after it");
	pthread_once(&once, once_fn);
	CHECK(once_runs == 1, "pthread_once again later: not run");
}

/* ---- thread-specific data ---- */

static pthread_key_t k_rec, k_null, k_deleted, k_again, k_forever;
static int rec_calls, rec_value_ok, rec_cleared, null_calls, deleted_calls, again_calls, forever_calls;
static intptr_t again_values[8];

static void d_rec(void *v)
{
	rec_calls++;
	rec_value_ok = v == (void *)0x1111;
	rec_cleared = pthread_getspecific(k_rec) == NULL;
}
static void d_null(void *v)
{
	(void)v;
	null_calls++;
}
static void d_deleted(void *v)
{
	(void)v;
	deleted_calls++;
}
static void d_again(void *v)
{
	intptr_t x = (intptr_t)v;
	if (again_calls < 8)
		again_values[again_calls] = x;
	again_calls++;
	if (x < 3) /* store again: another round */
		pthread_setspecific(k_again, (void *)(x + 1));
}
static void d_forever(void *v)
{
	forever_calls++;
	pthread_setspecific(k_forever, v);
}

static struct gate key_gate = GATE_INIT;
static void *use_keys(void *arg)
{
	(void)arg;
	int fresh = pthread_getspecific(k_rec) == NULL;
	pthread_setspecific(k_rec, (void *)0x1111);
	pthread_setspecific(k_null, (void *)0x2222);
	pthread_setspecific(k_null, NULL); /* NULL at exit: no call */
	pthread_setspecific(k_deleted, (void *)0x3333);
	pthread_setspecific(k_again, (void *)1);
	pthread_setspecific(k_forever, (void *)0x4444);
	gate_wait(&key_gate); /* main deletes k_deleted meanwhile */
	int mine = pthread_getspecific(k_rec) == (void *)0x1111 && pthread_getspecific(k_again) == (void *)1;
	return (void *)(intptr_t)(fresh && mine);
}

#define MANY_KEYS 200
static void *many_keys(void *arg)
{
	pthread_key_t *keys = arg;
	for (int i = 0; i < MANY_KEYS; i++)
		pthread_setspecific(keys[i], (void *)(intptr_t)(i * 3 + 1));
	sched_yield();
	int ok = 1;
	for (int i = 0; i < MANY_KEYS; i++)
		ok &= pthread_getspecific(keys[i]) == (void *)(intptr_t)(i * 3 + 1);
	return (void *)(intptr_t)ok;
}

static void test_keys(void)
{
	CHECK(pthread_key_create(&k_rec, d_rec) == 0 && pthread_key_create(&k_null, d_null) == 0 &&
		      pthread_key_create(&k_deleted, d_deleted) == 0 && pthread_key_create(&k_again, d_again) == 0 &&
		      pthread_key_create(&k_forever, d_forever) == 0,
	      "key_create");
	CHECK(pthread_getspecific(k_rec) == NULL, "a new key reads NULL");
	CHECK(pthread_setspecific(k_rec, (void *)5) == 0 && pthread_getspecific(k_rec) == (void *)5,
	      "setspecific/getspecific round trip");

	pthread_t t;
	void *r;
	pthread_create(&t, NULL, use_keys, NULL);
	gate_await_arrivals(&key_gate, 1);
	CHECK(pthread_key_delete(k_deleted) == 0, "key_delete while a thread holds a value");
	gate_open(&key_gate);
	pthread_join(t, &r);
	CHECK((intptr_t)r == 1, "a thread starts with NULL and sees only its own values");
	CHECK(pthread_getspecific(k_rec) == (void *)5, "main's value unchanged by the thread");
	CHECK(rec_calls == 1 && rec_value_ok, "destructor called once at exit with the thread's value");
	CHECK(rec_cleared, "the key reads NULL inside its destructor");
	CHECK(null_calls == 0, "no destructor call for a NULL value");
	CHECK(deleted_calls == 0, "no destructor call for a deleted key");
	CHECK(again_calls == 3 && again_values[0] == 1 && again_values[1] == 2 && again_values[2] == 3,
	      "destructor that stores again is re-run with the new value");
	CHECK(forever_calls == PTHREAD_DESTRUCTOR_ITERATIONS,
	      "destructor storing forever runs PTHREAD_DESTRUCTOR_ITERATIONS times");

	/* A key reusing a deleted key's slot must not show the old value. */
	pthread_key_t k_old, k_new;
	pthread_key_create(&k_old, NULL);
	pthread_setspecific(k_old, (void *)77);
	pthread_key_delete(k_old);
	pthread_key_create(&k_new, NULL);
	CHECK(pthread_getspecific(k_new) == NULL, "a key created after a delete reads NULL");
	CHECK(pthread_key_delete(k_new) == 0 && pthread_key_delete(k_new) == EINVAL, "delete a key twice: EINVAL");

	pthread_key_t keys[MANY_KEYS];
	int created = 1;
	for (int i = 0; i < MANY_KEYS; i++)
		created &= pthread_key_create(&keys[i], NULL) == 0;
	for (int i = 0; i < MANY_KEYS; i++)
		pthread_setspecific(keys[i], (void *)(intptr_t)(-i - 1));
	pthread_t ts[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&ts[i], NULL, many_keys, keys);
	int ok = created;
	for (int i = 0; i < 4; i++) {
		pthread_join(ts[i], &r);
		ok &= (intptr_t)r == 1;
	}
	for (int i = 0; i < MANY_KEYS; i++)
		ok &= pthread_getspecific(keys[i]) == (void *)(intptr_t)(-i - 1);
	for (int i = 0; i < MANY_KEYS; i++)
		ok &= pthread_key_delete(keys[i]) == 0;
	CHECK(ok, "200 keys with per-thread values in 5 threads");
}

/* ---- names ---- */

static struct gate name_gate = GATE_INIT;
static void *named(void *arg)
{
	char *out = arg;
	gate_wait(&name_gate); /* main names us meanwhile */
	if (pthread_getname_np(pthread_self(), out, 16) != 0)
		strcpy(out, "<error>");
	return NULL;
}

static void test_names(void)
{
	char name[32];
	pthread_t self = pthread_self();
	CHECK(pthread_setname_np(self, "sixteen-chars-xx") == ERANGE, "setname with 16 chars: ERANGE");
	CHECK(pthread_setname_np(self, "fifteen-chars-x") == 0, "setname with 15 chars: 0");
	CHECK(pthread_getname_np(self, name, sizeof name) == 0 && strcmp(name, "fifteen-chars-x") == 0,
	      "getname returns all 15");
	CHECK(pthread_setname_np(self, "api-main") == 0 && pthread_getname_np(self, name, 16) == 0 &&
		      strcmp(name, "api-main") == 0,
	      "rename, getname with a 16-byte buffer");
	CHECK(pthread_getname_np(self, name, 15) == ERANGE, "getname into a 15-byte buffer: ERANGE");

	char seen[16] = "";
	pthread_t t;
	pthread_create(&t, NULL, named, seen);
	gate_await_arrivals(&name_gate, 1);
	CHECK(pthread_setname_np(t, "api-worker") == 0, "setname of another thread");
	CHECK(pthread_getname_np(t, name, sizeof name) == 0 && strcmp(name, "api-worker") == 0,
	      "getname of another thread");
	gate_open(&name_gate);
	pthread_join(t, NULL);
	CHECK(strcmp(seen, "api-worker") == 0, "the thread sees the name it was given");
	CHECK(pthread_getname_np(self, name, sizeof name) == 0 && strcmp(name, "api-main") == 0,
	      "main's name unchanged");
}

/* ---- attributes and stacks ---- */

struct probe {
	int ok_inside;          /* a local lies within getattr_np's stack */
	void *lo;
	size_t size, guard;
	int detach;
	char *local;
	struct gate *hold;      /* wait here, if set, before returning */
};

static void *stack_probe(void *arg)
{
	struct probe *p = arg;
	volatile char local[64];
	local[0] = 1;
	pthread_attr_t a;
	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return NULL;
	pthread_attr_getstack(&a, &p->lo, &p->size);
	pthread_attr_getguardsize(&a, &p->guard);
	pthread_attr_getdetachstate(&a, &p->detach);
	pthread_attr_destroy(&a);
	p->local = (char *)local;
	p->ok_inside = p->local > (char *)p->lo && p->local + sizeof local <= (char *)p->lo + p->size;
	if (p->hold)
		gate_wait(p->hold);
	return p;
}

static void test_attrs(void)
{
	pthread_attr_t a;
	size_t s;
	int v;
	struct sched_param sp;
	long page = sysconf(_SC_PAGESIZE);

	pthread_attr_init(&a);
	CHECK(pthread_attr_getdetachstate(&a, &v) == 0 && v == PTHREAD_CREATE_JOINABLE, "default detachstate");
	CHECK(pthread_attr_getscope(&a, &v) == 0 && v == PTHREAD_SCOPE_SYSTEM, "default scope: system");
	CHECK(pthread_attr_getinheritsched(&a, &v) == 0 && v == PTHREAD_INHERIT_SCHED, "default inheritsched");
	CHECK(pthread_attr_getschedpolicy(&a, &v) == 0 && v == SCHED_OTHER, "default schedpolicy");
	CHECK(pthread_attr_getguardsize(&a, &s) == 0 && s == (size_t)page, "default guardsize: a page");

	CHECK(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED) == 0 &&
		      pthread_attr_getdetachstate(&a, &v) == 0 && v == PTHREAD_CREATE_DETACHED &&
		      pthread_attr_setdetachstate(&a, PTHREAD_CREATE_JOINABLE) == 0 &&
		      pthread_attr_getdetachstate(&a, &v) == 0 && v == PTHREAD_CREATE_JOINABLE,
	      "detachstate round trips");
	CHECK(pthread_attr_setdetachstate(&a, 12345) == EINVAL, "bad detachstate: EINVAL");
	CHECK(pthread_attr_setstacksize(&a, 1 << 20) == 0 && pthread_attr_getstacksize(&a, &s) == 0 &&
		      s == 1 << 20,
	      "stacksize round trip");
	CHECK(pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN - 1) == EINVAL, "stacksize below PTHREAD_STACK_MIN: EINVAL");
	CHECK(pthread_attr_setguardsize(&a, 8192) == 0 && pthread_attr_getguardsize(&a, &s) == 0 && s == 8192,
	      "guardsize round trip");
	CHECK(pthread_attr_setscope(&a, PTHREAD_SCOPE_SYSTEM) == 0 && pthread_attr_getscope(&a, &v) == 0 &&
		      v == PTHREAD_SCOPE_SYSTEM,
	      "scope system round trip");
	CHECK(pthread_attr_setscope(&a, PTHREAD_SCOPE_PROCESS) == ENOTSUP, "scope process: ENOTSUP");
	CHECK(pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED) == 0 &&
		      pthread_attr_getinheritsched(&a, &v) == 0 && v == PTHREAD_EXPLICIT_SCHED,
	      "inheritsched round trip");
	CHECK(pthread_attr_setschedpolicy(&a, SCHED_RR) == 0 && pthread_attr_getschedpolicy(&a, &v) == 0 &&
		      v == SCHED_RR && pthread_attr_setschedpolicy(&a, SCHED_FIFO) == 0 &&
		      pthread_attr_getschedpolicy(&a, &v) == 0 && v == SCHED_FIFO,
	      "schedpolicy round trips");
	sp.sched_priority = 5;
	int set_ok = pthread_attr_setschedparam(&a, &sp) == 0;
	sp.sched_priority = 0;
	CHECK(set_ok && pthread_attr_getschedparam(&a, &sp) == 0 && sp.sched_priority == 5, "schedparam round trip");
	/* Back to what an unprivileged process may create. */
	sp.sched_priority = 0;
	pthread_attr_setschedpolicy(&a, SCHED_OTHER);
	pthread_attr_setschedparam(&a, &sp);
	pthread_attr_setinheritsched(&a, PTHREAD_INHERIT_SCHED);

	/* A created thread's own view of its stack. */
	struct probe p = { 0 };
	pthread_t t;
	void *r = NULL;
	CHECK(pthread_create(&t, &a, stack_probe, &p) == 0 && pthread_join(t, &r) == 0 && r == &p,
	      "create with a 1 MiB stack and an 8 KiB guard");
	CHECK(p.size == 1 << 20, "getattr_np: the requested stack size");
	CHECK(p.ok_inside, "getattr_np: the stack range holds the thread's locals");
	CHECK(p.guard == 8192, "getattr_np: the requested guard size");
	CHECK(p.detach == PTHREAD_CREATE_JOINABLE, "getattr_np: joinable");

	/* Another thread's stack, seen from main while it is alive. */
	struct gate hold = GATE_INIT;
	struct probe q = { 0 };
	q.hold = &hold;
	pthread_create(&t, &a, stack_probe, &q);
	gate_await_arrivals(&hold, 1);
	pthread_attr_t ta;
	void *lo = NULL;
	s = 0;
	CHECK(pthread_getattr_np(t, &ta) == 0 && pthread_attr_getstack(&ta, &lo, &s) == 0 && s == 1 << 20 &&
		      q.local > (char *)lo && q.local < (char *)lo + s,
	      "getattr_np of another thread: its size and range");
	pthread_attr_destroy(&ta);
	gate_open(&hold);
	pthread_join(t, NULL);
	pthread_attr_destroy(&a);

	/* A user-supplied stack. */
	size_t ssize = 256 * 1024;
	void *stack = aligned_alloc((size_t)page, ssize);
	memset(stack, 0, ssize);
	pthread_attr_init(&a);
	void *got_addr = NULL;
	size_t got_size = 0;
	CHECK(pthread_attr_setstack(&a, stack, ssize) == 0 && pthread_attr_getstack(&a, &got_addr, &got_size) == 0 &&
		      got_addr == stack && got_size == ssize,
	      "setstack/getstack round trip");
	memset(&p, 0, sizeof p);
	CHECK(pthread_create(&t, &a, stack_probe, &p) == 0 && pthread_join(t, NULL) == 0, "create on a user stack");
	CHECK(p.local >= (char *)stack && p.local < (char *)stack + ssize, "the thread's locals lie in the user buffer");
	CHECK(p.lo == stack && p.size == ssize, "getattr_np reports the user buffer");
	pthread_attr_destroy(&a);
	free(stack);
}

int main(void)
{
	test_join_detach();
	test_once();
	test_keys();
	test_names();
	test_attrs();
	/* The two detached threads were released long ago. */
	struct timespec ms = { 0, 1000000 };
	for (int i = 0; i < 5000 && __atomic_load_n(&detached_ran, __ATOMIC_RELAXED) < 2; i++)
		nanosleep(&ms, NULL);
	CHECK(detached_ran == 2, "detached threads ran to completion");
	printf("%s\n", failures ? "some checks FAILED" : "all checks passed");
	return failures != 0;
}
