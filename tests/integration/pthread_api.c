/* The thread API's results and error codes, as NPTL returns them. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <time.h>


static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int release;

static void *wait_release(void *arg)
{
	pthread_mutex_lock(&mu);
	while (!release)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return arg;
}

static void do_release(void)
{
	pthread_mutex_lock(&mu);
	release = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void *ret_arg(void *arg)
{
	return arg;
}

static void *join_self(void *arg)
{
	(void)arg;
	return (void *)(long)pthread_join(pthread_self(), NULL);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static void once_fn(void)
{
	struct timespec ts = { 0, 1000000 };
	nanosleep(&ts, NULL);
	once_runs++;
}
static void *call_once(void *arg)
{
	(void)arg;
	pthread_once(&once, once_fn);
	return (void *)(long)once_runs;
}

static pthread_key_t key, key2;
static int destructor_calls, destructor_rounds;
static void destr(void *v)
{
	__atomic_add_fetch(&destructor_calls, 1, __ATOMIC_RELAXED);
	if ((long)v < 3) { /* store again: glibc runs another round */
		pthread_setspecific(key2, (void *)((long)v + 1));
		__atomic_add_fetch(&destructor_rounds, 1, __ATOMIC_RELAXED);
	}
}
static void *use_keys(void *arg)
{
	(void)arg;
	pthread_setspecific(key, (void *)1);
	pthread_setspecific(key2, (void *)1);
	return pthread_getspecific(key);
}

static void *stack_probe(void *arg)
{
	int local;
	pthread_attr_t a;
	void *lo;
	size_t size;
	pthread_getattr_np(pthread_self(), &a);
	pthread_attr_getstack(&a, &lo, &size);
	pthread_attr_destroy(&a);
	long ok = (char *)&local > (char *)lo && (char *)&local < (char *)lo + size;
	long *out = arg;
	out[0] = ok;
	out[1] = (long)size;
	out[2] = (long)(char *)&local;
	return NULL;
}

int main(void)
{
	pthread_t t;
	void *r;

	/* join / detach errors */
	pthread_attr_t da;
	pthread_attr_init(&da);
	pthread_attr_setdetachstate(&da, PTHREAD_CREATE_DETACHED);
	pthread_create(&t, &da, wait_release, NULL);
	CHECK(pthread_join(t, NULL) == EINVAL, "join a detached thread: EINVAL");
	CHECK(pthread_detach(t) == EINVAL, "detach a detached thread: EINVAL");
	CHECK(pthread_join(pthread_self(), NULL) == EDEADLK, "join self: EDEADLK");
	pthread_create(&t, NULL, join_self, NULL);
	pthread_join(t, &r);
	CHECK((long)r == EDEADLK, "a thread joining itself: EDEADLK");

	pthread_t w;
	pthread_create(&w, NULL, wait_release, (void *)7);
	CHECK(pthread_tryjoin_np(w, &r) == EBUSY, "tryjoin a running thread: EBUSY");
	struct timespec ts = deadline_in(CLOCK_REALTIME, 20000000);
	CHECK(pthread_timedjoin_np(w, &r, &ts) == ETIMEDOUT, "timedjoin a blocked thread: ETIMEDOUT");
	do_release();
	ts = deadline_in(CLOCK_REALTIME, 10000000000L);
	CHECK(pthread_timedjoin_np(w, &r, &ts) == 0 && (long)r == 7, "timedjoin after release: 0 and the value");
	pthread_create(&t, NULL, ret_arg, (void *)9);
	while (pthread_tryjoin_np(t, &r) == EBUSY)
		sched_yield();
	CHECK((long)r == 9, "tryjoin eventually returns the value");

	/* once */
	pthread_t o[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&o[i], NULL, call_once, NULL);
	int all_saw_one = 1;
	for (int i = 0; i < 8; i++) {
		pthread_join(o[i], &r);
		all_saw_one &= (long)r == 1;
	}
	CHECK(once_runs == 1 && all_saw_one, "pthread_once from 8 threads: runs once, all wait for it");

	/* keys */
	CHECK(pthread_key_create(&key, destr) == 0 && pthread_key_create(&key2, destr) == 0, "key_create");
	CHECK(pthread_getspecific(key) == NULL, "a new key reads NULL");
	pthread_setspecific(key, (void *)5);
	CHECK(pthread_getspecific(key) == (void *)5, "setspecific/getspecific round trip");
	pthread_create(&t, NULL, use_keys, NULL);
	pthread_join(t, &r);
	CHECK((long)r == 1, "another thread sees its own value");
	CHECK(pthread_getspecific(key) == (void *)5, "and not ours");
	/* key: destr(1) stores 2 in key2; key2: destr(2) stores 3; round two: destr(3). */
	CHECK(destructor_calls == 3 && destructor_rounds == 2, "destructors at exit, re-run while values are stored");
	pthread_key_t k3;
	pthread_key_delete(key);
	pthread_key_create(&k3, NULL);
	CHECK(pthread_getspecific(k3) == NULL, "a key reusing a deleted slot reads NULL");
	CHECK(pthread_key_delete(k3) == 0 && pthread_key_delete(k3) == EINVAL, "delete twice: EINVAL");

	/* names */
	char name[16];
	CHECK(pthread_setname_np(pthread_self(), "a-name-longer-than-15") == ERANGE, "setname > 15 chars: ERANGE");
	CHECK(pthread_setname_np(pthread_self(), "worker-main") == 0, "setname");
	CHECK(pthread_getname_np(pthread_self(), name, sizeof name) == 0 && strcmp(name, "worker-main") == 0,
	      "getname returns it");
	CHECK(pthread_getname_np(pthread_self(), name, 8) == ERANGE, "getname into a short buffer: ERANGE");

	/* attributes and stacks */
	pthread_attr_t a;
	pthread_attr_init(&a);
	size_t s;
	int v;
	pthread_attr_setstacksize(&a, 1 << 20);
	pthread_attr_getstacksize(&a, &s);
	CHECK(s == 1 << 20, "attr stacksize round trip");
	pthread_attr_setguardsize(&a, 8192);
	pthread_attr_getguardsize(&a, &s);
	CHECK(s == 8192, "attr guardsize round trip");
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_JOINABLE);
	pthread_attr_getdetachstate(&a, &v);
	CHECK(v == PTHREAD_CREATE_JOINABLE, "attr detachstate round trip");
	CHECK(pthread_attr_setscope(&a, PTHREAD_SCOPE_SYSTEM) == 0, "attr scope system");
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_getinheritsched(&a, &v);
	CHECK(v == PTHREAD_EXPLICIT_SCHED, "attr inheritsched round trip");
	pthread_attr_setinheritsched(&a, PTHREAD_INHERIT_SCHED);
	long probe[3];
	pthread_create(&t, &a, stack_probe, probe);
	pthread_join(t, NULL);
	CHECK(probe[0] && probe[1] == 1 << 20, "getattr_np: requested stack size, locals inside the stack");
	pthread_attr_destroy(&a);

	size_t ssize = 256 * 1024;
	void *stack = aligned_alloc(4096, ssize);
	pthread_attr_init(&a);
	pthread_attr_setstack(&a, stack, ssize);
	pthread_create(&t, &a, stack_probe, probe);
	pthread_join(t, NULL);
	CHECK(probe[0] && (char *)probe[2] >= (char *)stack && (char *)probe[2] < (char *)stack + ssize,
	      "setstack: the thread runs on the given memory");
	pthread_attr_destroy(&a);
	free(stack);

	printf("%s\n", failures ? "some checks FAILED" : "all checks passed");
	return failures != 0;
}
