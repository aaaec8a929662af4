/* Robust mutexes: owner death inside the process (a thread exits holding
 * one) and across processes (the holder is killed with SIGKILL, exits, or
 * its thread exits while another process waits): EOWNERDEAD for the next
 * locker, pthread_mutex_consistent, ENOTRECOVERABLE when unlocked without
 * it, and the usual EDEADLK/EPERM/EBUSY rules. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static void robust_init(pthread_mutex_t *m, int type, int pshared)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutexattr_settype(&a, type);
	pthread_mutexattr_setpshared(&a, pshared);
	if (pthread_mutex_init(m, &a) != 0)
		printf("robust init failed\n");
	pthread_mutexattr_destroy(&a);
}

static void *lock_and_exit(void *arg)
{
	pthread_mutex_lock(arg);
	return NULL; /* exits holding it */
}

static void die_holding(pthread_mutex_t *m)
{
	pthread_t t;
	pthread_create(&t, NULL, lock_and_exit, m);
	pthread_join(t, NULL);
}

static void *lock_result(void *arg)
{
	return (void *)(long)pthread_mutex_lock(arg);
}

static void *try_result(void *arg)
{
	return (void *)(long)pthread_mutex_trylock(arg);
}

static int in_thread(void *(*fn)(void *), pthread_mutex_t *m)
{
	pthread_t t;
	void *r;
	pthread_create(&t, NULL, fn, m);
	pthread_join(t, &r);
	return (int)(long)r;
}

static pthread_mutex_t gate; /* holds the dying thread until told */
static volatile int held;    /* the dying thread has the mutex */

static void *hold_until_gate(void *arg)
{
	pthread_mutex_lock(arg);
	held = 1;
	pthread_mutex_lock(&gate);
	pthread_mutex_unlock(&gate);
	return NULL;
}

static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int signalled;

/* Takes the mutex, signals the condvar, exits holding the mutex. */
static void *signal_and_die(void *arg)
{
	pthread_mutex_lock(arg);
	signalled = 1;
	pthread_cond_signal(&cv);
	return NULL;
}

static void *errorcheck_other(void *arg)
{
	return (void *)(long)pthread_mutex_unlock(arg);
}

static void in_process(void)
{
	pthread_mutex_t m;

	robust_init(&m, PTHREAD_MUTEX_NORMAL, PTHREAD_PROCESS_PRIVATE);
	die_holding(&m);
	CHECK(pthread_mutex_lock(&m) == EOWNERDEAD, "thread exits holding it: lock EOWNERDEAD");
	CHECK(pthread_mutex_consistent(&m) == 0, "pthread_mutex_consistent");
	CHECK(pthread_mutex_consistent(&m) == EINVAL, "consistent again: EINVAL");
	CHECK(pthread_mutex_unlock(&m) == 0, "unlock after consistent");
	CHECK(pthread_mutex_lock(&m) == 0, "lock again: 0");
	CHECK(in_thread(try_result, &m) == EBUSY, "trylock from another thread: EBUSY");
	CHECK(pthread_mutex_unlock(&m) == 0, "unlock");
	CHECK(in_thread(lock_result, &m) == 0, "a thread locks it and exits holding it");
	CHECK(pthread_mutex_trylock(&m) == EOWNERDEAD, "trylock after that owner died: EOWNERDEAD");
	CHECK(pthread_mutex_unlock(&m) == 0, "unlock without consistent");
	CHECK(pthread_mutex_lock(&m) == ENOTRECOVERABLE, "lock then: ENOTRECOVERABLE");
	CHECK(pthread_mutex_trylock(&m) == ENOTRECOVERABLE, "trylock then: ENOTRECOVERABLE");
	CHECK(pthread_mutex_destroy(&m) == 0, "destroy a not-recoverable mutex");

	/* A waiter parked on the mutex when the owner exits wakes with
	 * EOWNERDEAD. */
	robust_init(&m, PTHREAD_MUTEX_NORMAL, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_init(&gate, NULL);
	pthread_mutex_lock(&gate);
	pthread_t holder, waiter;
	pthread_create(&holder, NULL, hold_until_gate, &m);
	while (!held)
		usleep(1000);
	held = 0;
	pthread_create(&waiter, NULL, lock_result, &m);
	usleep(50000); /* let the waiter block */
	pthread_mutex_unlock(&gate);
	void *r;
	pthread_join(holder, NULL);
	pthread_join(waiter, &r);
	CHECK((long)r == EOWNERDEAD, "waiter blocked while the owner exited: EOWNERDEAD");

	/* A condvar wait relocks a robust mutex whose owner died meanwhile. */
	robust_init(&m, PTHREAD_MUTEX_NORMAL, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_lock(&m);
	pthread_t sig;
	pthread_create(&sig, NULL, signal_and_die, &m);
	int cr = 0;
	while (!signalled && cr == 0)
		cr = pthread_cond_wait(&cv, &m);
	pthread_join(sig, NULL);
	CHECK(cr == EOWNERDEAD, "condvar wait: EOWNERDEAD, the signaller exited holding the mutex");
	CHECK(pthread_mutex_consistent(&m) == 0 && pthread_mutex_unlock(&m) == 0, "consistent and unlock after the wait");

	/* Errorcheck and recursive robust mutexes. */
	robust_init(&m, PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PROCESS_PRIVATE);
	CHECK(pthread_mutex_lock(&m) == 0, "errorcheck: lock");
	CHECK(pthread_mutex_lock(&m) == EDEADLK, "errorcheck: relock EDEADLK");
	CHECK(pthread_mutex_trylock(&m) == EDEADLK, "errorcheck: trylock by the owner EDEADLK (robust)");
	struct timespec bad = { 0, -1 };
	CHECK(pthread_mutex_timedlock(&m, &bad) == EDEADLK, "errorcheck: timedlock by the owner, malformed time: EDEADLK");
	pthread_mutex_t plain = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
	pthread_mutex_lock(&plain);
	CHECK(pthread_mutex_timedlock(&plain, &bad) == EDEADLK, "non-robust errorcheck: same EDEADLK");
	pthread_mutex_unlock(&plain);
	CHECK(pthread_mutex_timedlock(&plain, &bad) == 0, "malformed time on a free mutex: locked (time not looked at)");
	pthread_mutex_unlock(&plain);
	CHECK(in_thread(errorcheck_other, &m) == EPERM, "errorcheck: unlock from another thread EPERM");
	CHECK(pthread_mutex_unlock(&m) == 0, "errorcheck: unlock");
	pthread_mutex_t m2;
	robust_init(&m2, PTHREAD_MUTEX_RECURSIVE, PTHREAD_PROCESS_PRIVATE);
	CHECK(pthread_mutex_lock(&m2) == 0 && pthread_mutex_lock(&m2) == 0 && pthread_mutex_trylock(&m2) == 0,
	      "recursive: locked three times");
	CHECK(pthread_mutex_unlock(&m2) == 0 && pthread_mutex_unlock(&m2) == 0, "recursive: unlock twice");
	CHECK(in_thread(try_result, &m2) == EBUSY, "recursive: still held (EBUSY elsewhere)");
	CHECK(pthread_mutex_unlock(&m2) == 0, "recursive: last unlock");
	CHECK(pthread_mutex_unlock(&m2) == EPERM, "recursive: unlock when free EPERM");
	CHECK(in_thread(try_result, &m2) == 0, "recursive: another thread takes it (and exits holding it)");
	CHECK(pthread_mutex_lock(&m2) == EOWNERDEAD, "recursive: EOWNERDEAD");
	CHECK(pthread_mutex_lock(&m2) == 0, "recursive: relock while inconsistent");
	CHECK(pthread_mutex_unlock(&m2) == ENOTRECOVERABLE, "recursive: inner unlock while inconsistent ENOTRECOVERABLE");
	CHECK(pthread_mutex_unlock(&m2) == 0, "recursive: outer unlock");
	CHECK(pthread_mutex_lock(&m2) == ENOTRECOVERABLE, "recursive: then ENOTRECOVERABLE");
}

/* Shared between the processes. */
struct shm {
	pthread_mutex_t m;
	pthread_mutex_t m2;
	pthread_mutex_t m3;
	volatile int child_waiting;
};

static void across_processes(void)
{
	struct shm *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	robust_init(&s->m, PTHREAD_MUTEX_NORMAL, PTHREAD_PROCESS_SHARED);
	robust_init(&s->m2, PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PROCESS_SHARED);
	robust_init(&s->m3, PTHREAD_MUTEX_NORMAL, PTHREAD_PROCESS_SHARED);
	int p[2];
	char c;

	/* The holder is killed with SIGKILL. */
	if (pipe(p) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(&s->m);
		if (write(p[1], "x", 1) != 1)
			_exit(2);
		for (;;)
			pause();
	}
	CHECK(read(p[0], &c, 1) == 1, "child holds the mutex");
	CHECK(pthread_mutex_trylock(&s->m) == EBUSY, "trylock while the child holds it: EBUSY");
	CHECK(pthread_mutex_unlock(&s->m) == EPERM, "unlock another process's mutex: EPERM");
	kill(pid, SIGKILL);
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "child killed with SIGKILL");
	CHECK(pthread_mutex_lock(&s->m) == EOWNERDEAD, "lock after the holder was killed: EOWNERDEAD");
	CHECK(pthread_mutex_consistent(&s->m) == 0, "consistent");
	CHECK(pthread_mutex_unlock(&s->m) == 0, "unlock");
	CHECK(pthread_mutex_lock(&s->m) == 0 && pthread_mutex_unlock(&s->m) == 0, "normal use afterwards");

	/* A thread of ours blocked on it when the holder is killed; this
	 * holder sleeps (under the shim its thread is parked, on no M). */
	pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(&s->m);
		if (write(p[1], "x", 1) != 1)
			_exit(2);
		for (;;)
			sleep(1);
	}
	CHECK(read(p[0], &c, 1) == 1, "second child holds the mutex");
	pthread_t t;
	pthread_create(&t, NULL, lock_result, &s->m);
	usleep(50000);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	void *r;
	pthread_join(t, &r);
	CHECK((long)r == EOWNERDEAD, "blocked waiter wakes with EOWNERDEAD after SIGKILL");
	CHECK(pthread_mutex_unlock(&s->m) == EPERM, "the waiter's thread exited holding it: EPERM for us");
	CHECK(pthread_mutex_lock(&s->m) == EOWNERDEAD, "and EOWNERDEAD again for us");
	pthread_mutex_consistent(&s->m);
	pthread_mutex_unlock(&s->m);

	/* The holder exits normally without unlocking. */
	pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(&s->m2);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	CHECK(pthread_mutex_lock(&s->m2) == EOWNERDEAD, "holder process exited: EOWNERDEAD");
	CHECK(pthread_mutex_lock(&s->m2) == EDEADLK, "errorcheck relock while inconsistent: EDEADLK");
	CHECK(in_thread(errorcheck_other, &s->m2) == EPERM, "unlock from another thread: EPERM");
	CHECK(pthread_mutex_unlock(&s->m2) == 0, "unlock without consistent");
	CHECK(pthread_mutex_lock(&s->m2) == ENOTRECOVERABLE, "then ENOTRECOVERABLE across processes");

	/* Our thread exits holding it while another process waits. */
	pthread_mutex_lock(&gate);
	pthread_create(&t, NULL, hold_until_gate, &s->m3);
	while (!held)
		usleep(1000);
	pid = fork();
	if (pid == 0) {
		s->child_waiting = 1;
		int e = pthread_mutex_lock(&s->m3);
		_exit(e == EOWNERDEAD ? 0 : 1);
	}
	while (!s->child_waiting)
		usleep(1000);
	usleep(50000); /* let the child block */
	pthread_mutex_unlock(&gate);
	pthread_join(t, NULL);
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "our thread exited holding it: the other process gets EOWNERDEAD");
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	in_process();
	across_processes();
	return failures != 0;
}
