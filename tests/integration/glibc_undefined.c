/* Where POSIX leaves a result undefined or optional, a program written
 * against glibc sees glibc's answer; under the shim it must see the same
 * (docs/compat.md says where the shim keeps a stricter one).  Each line is
 * the call's result; run-both compares them with the native run. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void show(const char *what, int r)
{
	printf("%-48s %s\n", what, r == 0 ? "0" : strerrorname_np(r));
}

/* sem_* report through errno. */
static int sem_err(int r)
{
	return r == 0 ? 0 : errno;
}

static void *rdlock_and_exit(void *l)
{
	pthread_rwlock_rdlock(l);
	return NULL;
}

static void *wrlock_and_exit(void *l)
{
	pthread_rwlock_wrlock(l);
	return NULL;
}

static void *lock_and_exit(void *m)
{
	pthread_mutex_lock(m);
	return NULL;
}

static void *sem_waiter(void *s)
{
	sem_wait(s);
	return NULL;
}

static void rwlocks(void)
{
	pthread_t t;
	pthread_rwlock_t a = PTHREAD_RWLOCK_INITIALIZER, b = PTHREAD_RWLOCK_INITIALIZER;
	pthread_rwlock_rdlock(&a);
	show("rwlock_destroy, read-locked by the caller", pthread_rwlock_destroy(&a));
	pthread_rwlock_wrlock(&b);
	show("rwlock_destroy, write-locked by the caller", pthread_rwlock_destroy(&b));

	pthread_rwlock_t c = PTHREAD_RWLOCK_INITIALIZER, d = PTHREAD_RWLOCK_INITIALIZER;
	pthread_create(&t, NULL, rdlock_and_exit, &c);
	pthread_join(t, NULL);
	show("rwlock_destroy, read-locked by an exited thread", pthread_rwlock_destroy(&c));
	pthread_create(&t, NULL, wrlock_and_exit, &d);
	pthread_join(t, NULL);
	show("rwlock_unlock, write-locked by an exited thread", pthread_rwlock_unlock(&d));
	show("rwlock_trywrlock after that", pthread_rwlock_trywrlock(&d));

	pthread_rwlock_t e = PTHREAD_RWLOCK_INITIALIZER;
	show("rwlock_unlock of an unlocked lock", pthread_rwlock_unlock(&e));

	pthread_rwlock_t f = PTHREAD_RWLOCK_INITIALIZER;
	struct timespec bad = { 0, -1 };
	show("rwlock_timedwrlock, free lock, bad time", pthread_rwlock_timedwrlock(&f, &bad));
	show("rwlock_timedrdlock, free lock, bad time", pthread_rwlock_timedrdlock(&f, &bad));
	pthread_rwlock_rdlock(&f);
	show("rwlock_tryrdlock, read-locked by the caller", pthread_rwlock_tryrdlock(&f));
	show("rwlock_trywrlock, read-locked by the caller", pthread_rwlock_trywrlock(&f));
}

static void mutexes(void)
{
	pthread_t t;
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&m);
	show("mutex_destroy, locked by the caller", pthread_mutex_destroy(&m));
	pthread_mutex_unlock(&m);
	show("mutex_destroy, unlocked", pthread_mutex_destroy(&m));

	pthread_mutex_t n = PTHREAD_MUTEX_INITIALIZER;
	pthread_create(&t, NULL, lock_and_exit, &n);
	pthread_join(t, NULL);
	show("mutex_unlock (default) by a non-owner", pthread_mutex_unlock(&n));
	show("mutex_trylock after that", pthread_mutex_trylock(&n));
	pthread_mutex_unlock(&n);
	show("mutex_unlock (default) of an unlocked mutex", pthread_mutex_unlock(&n));
	show("mutex_trylock after that", pthread_mutex_trylock(&n));

	static const struct {
		int type;
		const char *name;
	} kinds[] = { { PTHREAD_MUTEX_ERRORCHECK, "errorcheck" }, { PTHREAD_MUTEX_RECURSIVE, "recursive" } };
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		pthread_mutexattr_t a;
		pthread_mutex_t k;
		char what[64];
		pthread_mutexattr_init(&a);
		pthread_mutexattr_settype(&a, kinds[i].type);
		pthread_mutex_init(&k, &a);
		snprintf(what, sizeof what, "mutex_unlock (%s) of an unlocked mutex", kinds[i].name);
		show(what, pthread_mutex_unlock(&k));
		pthread_mutex_lock(&k);
		snprintf(what, sizeof what, "mutex_destroy (%s), locked", kinds[i].name);
		show(what, pthread_mutex_destroy(&k));
	}

	pthread_mutex_t o = PTHREAD_MUTEX_INITIALIZER;
	struct timespec bad = { 0, -1 };
	show("mutex_timedlock, free mutex, bad time", pthread_mutex_timedlock(&o, &bad));
	show("mutex_timedlock, held mutex, bad time", pthread_mutex_timedlock(&o, &bad));
}

static void semaphores(void)
{
	pthread_t t;
	sem_t s;
	sem_init(&s, 0, 0);
	pthread_create(&t, NULL, sem_waiter, &s);
	while (1) {
		/* glibc counts the waiter in the object: wait until it is there. */
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
		int v;
		sem_getvalue(&s, &v);
		if (v == 0)
			break;
	}
	usleep(20000);
	show("sem_destroy with a thread waiting", sem_err(sem_destroy(&s)));
	sem_post(&s); /* undefined after destroy; both let the waiter go */
	pthread_join(t, NULL);

	sem_t u;
	sem_init(&u, 0, 1);
	struct timespec bad = { 0, -1 };
	show("sem_timedwait, value 1, bad time", sem_err(sem_timedwait(&u, &bad)));
	sem_init(&u, 0, 0);
	show("sem_timedwait, value 0, bad time", sem_err(sem_timedwait(&u, &bad)));
}

static void others(void)
{
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	show("cond_destroy", pthread_cond_destroy(&c));
	show("cond_destroy again", pthread_cond_destroy(&c));
	pthread_barrier_t b;
	pthread_barrier_init(&b, NULL, 2);
	show("barrier_destroy, nobody waiting", pthread_barrier_destroy(&b));
	pthread_spinlock_t sl;
	pthread_spin_init(&sl, 0);
	pthread_spin_lock(&sl);
	show("spin_destroy, locked", pthread_spin_destroy(&sl));
	show("spin_unlock", pthread_spin_unlock(&sl));
	show("spin_unlock again", pthread_spin_unlock(&sl));
	pthread_key_t k;
	pthread_key_create(&k, NULL);
	pthread_key_delete(k);
	show("key_delete of a deleted key", pthread_key_delete(k));
	show("setspecific of a deleted key", pthread_setspecific(k, &k));
	show("join of the caller itself", pthread_join(pthread_self(), NULL));
	show("kill with signal 0, the caller", pthread_kill(pthread_self(), 0));
	show("kill with signal 999, the caller", pthread_kill(pthread_self(), 999));
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	show("mutexattr_settype 99", pthread_mutexattr_settype(&ma, 99));
	pthread_mutexattr_destroy(&ma);
	show("mutexattr_destroy again", pthread_mutexattr_destroy(&ma));
}

int main(void)
{
	rwlocks();
	mutexes();
	semaphores();
	others();
	return 0;
}
