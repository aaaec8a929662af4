/* Process-shared synchronization between two processes (fork, shared
 * memory): mutex + condvar, semaphores, a named semaphore, a barrier and an
 * rwlock, each with counted hand-offs.  Then, with one P under the shim
 * (GMP_MAXPROCS=1), a thread blocked on each kind of process-shared object
 * must not stop another thread from running: the wait blocks the M in a
 * syscall and sysmon hands the P on. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blocked.h"
#include "check.h"

#define ROUNDS 2000

struct shm {
	pthread_mutex_t m;
	pthread_cond_t c;
	int turn;
	long handoffs;
	sem_t ping, pong;
	long sem_rounds;
	pthread_barrier_t b;
	long barrier_sum[2];
	pthread_rwlock_t rw;
	long rw_a, rw_b; /* written together under the write lock */
	long rw_bad;
	pthread_mutex_t rm; /* robust */
	pthread_cond_t rc;  /* used with rm */
	int rturn;
	long rhandoffs;
	volatile int rwaiting;
};
static struct shm *s;

static void init_shared(void)
{
	s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&s->m, &ma);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&s->rm, &ma);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_cond_init(&s->c, &ca);
	pthread_cond_init(&s->rc, &ca);
	sem_init(&s->ping, 1, 0);
	sem_init(&s->pong, 1, 0);
	pthread_barrierattr_t ba;
	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&s->b, &ba, 2);
	pthread_rwlockattr_t ra;
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setpshared(&ra, PTHREAD_PROCESS_SHARED);
	pthread_rwlock_init(&s->rw, &ra);
}

/* Each side waits for its turn, counts, and passes the turn on. */
static void condvar_side(int me)
{
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&s->m);
		while (s->turn != me)
			pthread_cond_wait(&s->c, &s->m);
		s->handoffs++;
		s->turn = 1 - me;
		pthread_cond_signal(&s->c);
		pthread_mutex_unlock(&s->m);
	}
}

/* The same with a robust mutex. */
static void robust_condvar_side(int me)
{
	for (int i = 0; i < ROUNDS; i++) {
		if (pthread_mutex_lock(&s->rm) != 0)
			s->rw_bad++;
		while (s->rturn != me)
			if (pthread_cond_wait(&s->rc, &s->rm) != 0)
				s->rw_bad++;
		s->rhandoffs++;
		s->rturn = 1 - me;
		pthread_cond_signal(&s->rc);
		pthread_mutex_unlock(&s->rm);
	}
}

/* A thread waits on the condvar; another process takes the robust mutex,
 * signals, and is killed holding it: the wait returns EOWNERDEAD with the
 * mutex held. */
static void robust_condvar_owner_dies(void)
{
	pthread_mutex_lock(&s->rm);
	s->rturn = 0;
	s->rwaiting = 0;
	pid_t pid = fork();
	if (pid == 0) {
		while (!s->rwaiting)
			usleep(1000);
		pthread_mutex_lock(&s->rm); /* we get it once the parent waits */
		s->rturn = 1;
		pthread_cond_signal(&s->rc);
		kill(getpid(), SIGKILL);
	}
	s->rwaiting = 1;
	int r = 0;
	while (s->rturn == 0 && r == 0)
		r = pthread_cond_wait(&s->rc, &s->rm);
	waitpid(pid, NULL, 0);
	CHECK(r == EOWNERDEAD, "condvar wait returns EOWNERDEAD: the signaller died holding the robust mutex");
	CHECK(pthread_mutex_consistent(&s->rm) == 0 && pthread_mutex_unlock(&s->rm) == 0,
	      "consistent and unlock after that wait");
	CHECK(pthread_mutex_lock(&s->rm) == 0 && pthread_mutex_unlock(&s->rm) == 0, "robust mutex usable again");
}

static void sem_side(int me)
{
	for (int i = 0; i < ROUNDS; i++) {
		if (me == 0) {
			sem_post(&s->ping);
			sem_wait(&s->pong);
		} else {
			sem_wait(&s->ping);
			s->sem_rounds++;
			sem_post(&s->pong);
		}
	}
}

static void barrier_side(int me)
{
	for (int i = 0; i < ROUNDS; i++) {
		s->barrier_sum[me] += i;
		pthread_barrier_wait(&s->b);
		/* Between the two barriers both have added round i. */
		if (s->barrier_sum[0] != s->barrier_sum[1])
			s->rw_bad++;
		pthread_barrier_wait(&s->b);
	}
}

static void rwlock_side(int me)
{
	for (int i = 0; i < ROUNDS; i++) {
		if (me == 0) {
			pthread_rwlock_wrlock(&s->rw);
			s->rw_a++;
			s->rw_b++;
			pthread_rwlock_unlock(&s->rw);
		} else {
			pthread_rwlock_rdlock(&s->rw);
			if (s->rw_a != s->rw_b)
				s->rw_bad++;
			pthread_rwlock_unlock(&s->rw);
		}
	}
}

static void robust_side(int me)
{
	(void)me;
	for (int i = 0; i < ROUNDS; i++) {
		if (pthread_mutex_lock(&s->rm) != 0)
			s->rw_bad++;
		s->handoffs++;
		pthread_mutex_unlock(&s->rm);
	}
}

static int two_processes(void (*side)(int))
{
	pid_t pid = fork();
	if (pid == 0) {
		side(1);
		_exit(0);
	}
	side(0);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void named_semaphore(void)
{
	char name[64];
	snprintf(name, sizeof name, "/gmpshim-test-%d", (int)getpid());
	sem_t *a = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	CHECK(a != SEM_FAILED, "sem_open O_CREAT");
	pid_t pid = fork();
	if (pid == 0) {
		sem_t *b = sem_open(name, 0);
		if (b == SEM_FAILED)
			_exit(1);
		for (int i = 0; i < ROUNDS; i++)
			sem_post(b);
		sem_close(b);
		_exit(0);
	}
	int got = 0;
	for (int i = 0; i < ROUNDS; i++)
		got += sem_wait(a) == 0;
	int st;
	waitpid(pid, &st, 0);
	int v = -1;
	sem_getvalue(a, &v);
	CHECK(got == ROUNDS && v == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "named semaphore: 2000 posts from another process, each waited for");
	CHECK(sem_trywait(a) == -1 && errno == EAGAIN, "named semaphore: trywait at 0 EAGAIN");
	CHECK(sem_close(a) == 0, "sem_close");
	CHECK(sem_unlink(name) == 0, "sem_unlink");
	CHECK(sem_open(name, 0) == SEM_FAILED && errno == ENOENT, "sem_open after unlink: ENOENT");
}

/* --- a blocked thread must not stop the others --- */

static pid_t holder;
static int up[2], down[2];

/* Another process takes a lock and holds it until told (release) or
 * killed (kill_holder). */
static void hold_in_child(void (*take)(void), void (*give)(void))
{
	if (pipe(up) != 0 || pipe(down) != 0)
		abort();
	holder = fork();
	char c;
	if (holder == 0) {
		take();
		if (write(up[1], "x", 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(1);
		give();
		_exit(0);
	}
	if (read(up[0], &c, 1) != 1)
		abort();
}

static void close_pipes(void)
{
	waitpid(holder, NULL, 0);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

static void release_holder(void)
{
	if (write(down[1], "x", 1) != 1)
		abort();
	close_pipes();
}

static void kill_holder(void)
{
	kill(holder, SIGKILL);
	close_pipes();
}

static void take_m(void) { pthread_mutex_lock(&s->m); }
static void give_m(void) { pthread_mutex_unlock(&s->m); }
static void take_rm(void) { pthread_mutex_lock(&s->rm); }
static void take_wr(void) { pthread_rwlock_wrlock(&s->rw); }
static void give_wr(void) { pthread_rwlock_unlock(&s->rw); }

static void *lock_m(void *a)
{
	(void)a;
	result = pthread_mutex_lock(&s->m);
	pthread_mutex_unlock(&s->m);
	return NULL;
}

static void *lock_rm(void *a)
{
	(void)a;
	int r = pthread_mutex_lock(&s->rm);
	if (r == EOWNERDEAD)
		r = pthread_mutex_consistent(&s->rm);
	pthread_mutex_unlock(&s->rm);
	result = r;
	return NULL;
}

static void *rdlock(void *a)
{
	(void)a;
	result = pthread_rwlock_rdlock(&s->rw);
	pthread_rwlock_unlock(&s->rw);
	return NULL;
}

static void *semwait(void *a)
{
	(void)a;
	result = sem_wait(&s->ping);
	return NULL;
}

static void *barrier(void *a)
{
	(void)a;
	int r = pthread_barrier_wait(&s->b);
	result = r == PTHREAD_BARRIER_SERIAL_THREAD ? 0 : r;
	return NULL;
}

static void *condwait(void *a)
{
	(void)a;
	pthread_mutex_lock(&s->m);
	int r = 0;
	while (s->turn == 0 && r == 0)
		r = pthread_cond_wait(&s->c, &s->m);
	pthread_mutex_unlock(&s->m);
	result = r;
	return NULL;
}

/* The wake-up comes from another process, as it would from a native peer. */
static void from_child(void (*fn)(void))
{
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}
static void post_ping(void) { sem_post(&s->ping); }
static void meet_barrier(void) { pthread_barrier_wait(&s->b); }
static void signal_cond(void)
{
	pthread_mutex_lock(&s->m);
	s->turn = 1;
	pthread_cond_broadcast(&s->c);
	pthread_mutex_unlock(&s->m);
}
static void unblock_post(void) { from_child(post_ping); }
static void unblock_barrier(void) { from_child(meet_barrier); }
static void unblock_cond(void) { from_child(signal_cond); }

/* Timed waits on objects another process holds time out. */
static void timed_waits(void)
{
	struct timespec t;
	hold_in_child(take_m, give_m);
	t = deadline_in(CLOCK_REALTIME, 20000000);
	CHECK(pthread_mutex_timedlock(&s->m, &t) == ETIMEDOUT, "process-shared mutex timedlock: ETIMEDOUT");
	t = deadline_in(CLOCK_MONOTONIC, 20000000);
	CHECK(pthread_mutex_clocklock(&s->m, CLOCK_MONOTONIC, &t) == ETIMEDOUT,
	      "process-shared mutex clocklock: ETIMEDOUT");
	release_holder();
	hold_in_child(take_rm, take_rm);
	t = deadline_in(CLOCK_REALTIME, 20000000);
	CHECK(pthread_mutex_timedlock(&s->rm, &t) == ETIMEDOUT, "robust mutex timedlock: ETIMEDOUT");
	kill_holder();
	CHECK(pthread_mutex_trylock(&s->rm) == EOWNERDEAD, "robust mutex trylock after the holder was killed: EOWNERDEAD");
	pthread_mutex_consistent(&s->rm);
	pthread_mutex_unlock(&s->rm);
	hold_in_child(take_wr, give_wr);
	t = deadline_in(CLOCK_REALTIME, 20000000);
	CHECK(pthread_rwlock_timedrdlock(&s->rw, &t) == ETIMEDOUT, "process-shared rwlock timedrdlock: ETIMEDOUT");
	release_holder();
	t = deadline_in(CLOCK_REALTIME, 20000000);
	CHECK(sem_timedwait(&s->ping, &t) == -1 && errno == ETIMEDOUT, "process-shared sem_timedwait: ETIMEDOUT");
	pthread_mutex_lock(&s->m);
	t = deadline_in(CLOCK_REALTIME, 20000000);
	CHECK(pthread_cond_timedwait(&s->c, &s->m, &t) == ETIMEDOUT, "process-shared cond_timedwait: ETIMEDOUT");
	pthread_mutex_unlock(&s->m);
	pthread_mutex_lock(&s->rm);
	t = deadline_in(CLOCK_REALTIME, 20000000);
	CHECK(pthread_cond_timedwait(&s->rc, &s->rm, &t) == ETIMEDOUT,
	      "process-shared cond_timedwait with a robust mutex: ETIMEDOUT");
	CHECK(pthread_mutex_unlock(&s->rm) == 0, "the robust mutex is held again after the timeout");
}

static void blocked_does_not_stop_others(void)
{
	hold_in_child(take_m, give_m);
	CHECK(scenario(lock_m, release_holder) && result == 0, "blocked in a process-shared mutex lock, others ran");
	hold_in_child(take_rm, take_rm);
	CHECK(scenario(lock_rm, kill_holder) && result == 0, "blocked in a robust mutex lock until its holder was killed, others ran");
	hold_in_child(take_wr, give_wr);
	CHECK(scenario(rdlock, release_holder) && result == 0, "blocked in a process-shared rdlock, others ran");
	CHECK(scenario(semwait, unblock_post) && result == 0, "blocked in a process-shared sem_wait, others ran");
	CHECK(scenario(barrier, unblock_barrier) && result == 0, "blocked in a process-shared barrier, others ran");
	s->turn = 0;
	CHECK(scenario(condwait, unblock_cond) && result == 0, "blocked in a process-shared condvar wait, others ran");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	init_shared();
	CHECK(two_processes(condvar_side) && s->handoffs == 2 * ROUNDS,
	      "mutex + condvar: 4000 turns handed between processes");
	CHECK(two_processes(sem_side) && s->sem_rounds == ROUNDS, "semaphores: 2000 ping-pongs between processes");
	CHECK(two_processes(barrier_side) && s->rw_bad == 0, "barrier: 2000 rounds in step between processes");
	CHECK(two_processes(rwlock_side) && s->rw_bad == 0, "rwlock: readers never see a half write");
	s->handoffs = 0;
	CHECK(two_processes(robust_side) && s->handoffs == 2 * ROUNDS && s->rw_bad == 0,
	      "robust mutex: 4000 lock/unlock pairs between processes");
	s->rw_bad = 0;
	CHECK(two_processes(robust_condvar_side) && s->rhandoffs == 2 * ROUNDS && s->rw_bad == 0,
	      "robust mutex + condvar: 4000 turns handed between processes");
	robust_condvar_owner_dies();
	named_semaphore();
	timed_waits();
	blocked_does_not_stop_others();
	return failures != 0;
}
