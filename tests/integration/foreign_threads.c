/* Threads the shim did not make ("foreign": a library's threads made with
 * dlsym(RTLD_NEXT, "pthread_create"), as jemalloc's background thread, and
 * glibc's SIGEV_THREAD timer threads) waiting on and waking the program's
 * synchronization objects together with ordinary threads (Gs under the
 * shim): condvars both ways, mutexes held by Gs, semaphores, rwlocks,
 * barriers, once, timed waits that time out and ones that are woken, join
 * of a G, nanosleep, sched_yield, raw futex waits.  Natively every thread is ordinary. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

int foreign_create(pthread_t *t, void *(*fn)(void *), void *arg);
int foreign_join(pthread_t t, void **ret);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static sem_t sem;

/* Runs fn on a foreign thread and returns its result once it is over.
 * The join is glibc's (the library's), so wait for the end on the job's
 * own semaphore first: a G then never blocks its M in glibc's join for
 * long.  (One semaphore shared by all jobs let main join a foreign thread
 * whose sibling had finished first: at one P that join held the only P
 * while the thread it waited for needed a mutex handed to a queued G, a
 * wait only sysmon's rescue of the P ended, and under qemu-user, where
 * there is no rescue, for good: about 1 run in 300.) */
struct job {
	void *(*fn)(void *);
	void *arg;
	void *ret;
	sem_t done;
};

static void *job_main(void *a)
{
	struct job *j = a;
	j->ret = j->fn(j->arg);
	sem_post(&j->done);
	return NULL;
}

static pthread_t foreign_start(struct job *j)
{
	pthread_t t;
	sem_init(&j->done, 0, 0);
	if (foreign_create(&t, job_main, j) != 0) {
		printf("foreign_create failed\n");
		exit(1);
	}
	return t;
}

static void *foreign_finish(pthread_t t, struct job *j)
{
	while (sem_wait(&j->done) != 0)
		;
	foreign_join(t, NULL);
	sem_destroy(&j->done);
	return j->ret;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* --- condvar ping-pong: a foreign thread and a G take turns --- */
#define ROUNDS 300
static int turn; /* even: the G's turn, odd: the foreign thread's */

static void pingpong(int me)
{
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&m);
		while ((turn & 1) != me)
			pthread_cond_wait(&cv, &m);
		turn++;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&m);
	}
}

static void *foreign_pingpong(void *arg)
{
	pingpong(1);
	return NULL;
}

/* --- a mutex held by a G --- */
static volatile int released;

static void *foreign_lock_held(void *arg)
{
	sem_post(&sem); /* about to lock */
	pthread_mutex_lock(&m);
	int saw = released;
	pthread_mutex_unlock(&m);
	return (void *)(intptr_t)saw;
}

/* --- contention: foreign threads and Gs on one mutex --- */
#define INCS 20000
static long counter;

static void *contend(void *arg)
{
	for (int i = 0; i < INCS; i++) {
		pthread_mutex_lock(&m);
		counter++;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

/* --- semaphores both ways --- */
static sem_t s1, s2;

static void *foreign_sem(void *arg)
{
	int ok = 1;
	for (int i = 0; i < 100; i++) {
		while (sem_wait(&s1) != 0)
			;
		sem_post(&s2);
	}
	return (void *)(intptr_t)ok;
}

/* --- timed waits --- */
static pthread_mutex_t mm = PTHREAD_MUTEX_INITIALIZER; /* held by main */

static void *foreign_timeouts(void *arg)
{
	int r = 0;
	/* A condvar nobody signals, on each clock. */
	pthread_mutex_lock(&m);
	struct timespec dl = deadline_in(CLOCK_REALTIME, 30000000);
	int e = 0;
	while (e == 0)
		e = pthread_cond_timedwait(&cv, &m, &dl);
	r |= (e == ETIMEDOUT) << 0;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_t mcv;
	pthread_cond_init(&mcv, &ca);
	dl = deadline_in(CLOCK_MONOTONIC, 30000000);
	e = 0;
	while (e == 0)
		e = pthread_cond_timedwait(&mcv, &m, &dl);
	r |= (e == ETIMEDOUT) << 1;
	pthread_cond_destroy(&mcv);
	pthread_mutex_unlock(&m);
	/* A semaphore nobody posts. */
	sem_t s;
	sem_init(&s, 0, 0);
	dl = deadline_in(CLOCK_REALTIME, 30000000);
	e = 0;
	while (e == 0 || e == EINTR)
		e = sem_timedwait(&s, &dl) == 0 ? -1 : errno;
	r |= (e == ETIMEDOUT) << 2;
	/* A mutex held by a G (main holds mm until we post sem). */
	dl = deadline_in(CLOCK_REALTIME, 30000000);
	r |= (pthread_mutex_timedlock(&mm, &dl) == ETIMEDOUT) << 3;
	/* A raw futex wait with a timeout. */
	uint32_t word = 0;
	struct timespec rel = { 0, 20000000 };
	long fr = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &rel, NULL, 0);
	r |= (fr == -1 && errno == ETIMEDOUT) << 4;
	sem_post(&sem);
	return (void *)(intptr_t)r;
}

/* A long realtime wait nobody ends: the thread sleeps through it.  It
 * used to wake every 20 ms to look at the clock (jemalloc's background
 * thread in redis-server, 50 times a second); the kernel's realtime timer
 * follows clock changes by itself.  Its voluntary context switches say
 * how often it woke. */
static void *foreign_long_timeout(void *arg)
{
	struct rusage before, after;
	pthread_mutex_lock(&m);
	struct timespec dl = deadline_in(CLOCK_REALTIME, 300000000);
	getrusage(RUSAGE_THREAD, &before);
	int e = 0;
	while (e == 0)
		e = pthread_cond_timedwait(&cv, &m, &dl);
	getrusage(RUSAGE_THREAD, &after);
	pthread_mutex_unlock(&m);
	long wakes = after.ru_nvcsw - before.ru_nvcsw;
	if (e != ETIMEDOUT || wakes > 3)
		printf("  realtime wait of 300 ms: %s, %ld voluntary switches\n", e == ETIMEDOUT ? "timed out" : "error",
		       wakes);
	return (void *)(intptr_t)(e == ETIMEDOUT && wakes <= 3);
}

static volatile int flag;

static void *foreign_timed_woken(void *arg)
{
	int r = 0;
	pthread_mutex_lock(&m);
	struct timespec dl = deadline_in(CLOCK_REALTIME, 60L * 1000000000L);
	sem_post(&sem); /* waiting soon (the G needs m to signal) */
	int e = 0;
	while (!flag && e == 0)
		e = pthread_cond_timedwait(&cv, &m, &dl);
	r |= (e == 0 && flag) << 0;
	pthread_mutex_unlock(&m);
	dl = deadline_in(CLOCK_REALTIME, 60L * 1000000000L);
	sem_post(&sem);
	while ((e = sem_timedwait(&s1, &dl)) != 0 && errno == EINTR)
		;
	r |= (e == 0) << 1;
	return (void *)(intptr_t)r;
}

/* --- joining a G --- */
static void *g_exits_later(void *arg)
{
	sleep_ms(30);
	return (void *)(intptr_t)42;
}

static void *foreign_join_g(void *arg)
{
	void *ret = NULL;
	int e = pthread_join(*(pthread_t *)arg, &ret);
	return (void *)(intptr_t)(e == 0 && ret == (void *)(intptr_t)42);
}

/* --- sleeping --- */
static void *foreign_sleep(void *arg)
{
	int64_t t0 = now_ns();
	struct timespec ts = { 0, 20000000 };
	int r = nanosleep(&ts, NULL) == 0;
	usleep(1000);
	/* A library's lock spin (jemalloc's) yields between tries. */
	for (int i = 0; i < 100; i++)
		r &= sched_yield() == 0;
	return (void *)(intptr_t)(r && now_ns() - t0 >= 21000000);
}

/* --- raw futexes both ways --- */
static uint32_t fword, gword;

static void *foreign_futex(void *arg)
{
	while (__atomic_load_n(&fword, __ATOMIC_ACQUIRE) == 0)
		syscall(SYS_futex, &fword, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	__atomic_store_n(&gword, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &gword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	return (void *)1;
}

/* --- blocking reads, poll and epoll_wait on pipes the program made --- */
static int pa[2], pb[2], pc[2];

static void *foreign_io(void *arg)
{
	int r = 0;
	char c = 0;
	sem_post(&sem);
	r |= (read(pa[0], &c, 1) == 1 && c == 'a') << 0;
	struct pollfd p = { .fd = pb[0], .events = POLLIN };
	r |= (poll(&p, 1, -1) == 1 && (p.revents & POLLIN)) << 1;
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN }, out;
	epoll_ctl(ep, EPOLL_CTL_ADD, pc[0], &ev);
	sem_post(&sem);
	r |= (epoll_wait(ep, &out, 1, -1) == 1) << 2;
	close(ep);
	return (void *)(intptr_t)r;
}

/* --- keys, and many short-lived foreign threads that wait --- */
static pthread_key_t key;
static int destroyed;

static void destroy(void *v)
{
	__atomic_add_fetch(&destroyed, 1, __ATOMIC_RELAXED);
}

static void *foreign_churn(void *arg)
{
	pthread_setspecific(key, arg);
	pthread_mutex_lock(&m);
	while (!flag)
		pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
	return NULL;
}

/* --- the program's join and detach on foreign threads --- */
static void *foreign_waits_sem(void *arg)
{
	while (sem_wait(&s1) != 0)
		;
	return (void *)(intptr_t)7;
}

static void *foreign_quick(void *arg)
{
	return NULL;
}

/* --- rwlock, barrier, once --- */
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t bar;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static volatile int once_runs, once_done;

static void slow_init(void)
{
	once_runs++;
	sleep_ms(40);
	once_done = 1;
}

static void *g_once(void *arg)
{
	pthread_once(&once, slow_init);
	return NULL;
}

static void *foreign_misc(void *arg)
{
	int r = 0;
	sem_post(&sem);
	pthread_rwlock_rdlock(&rw); /* a G holds it for writing */
	r |= released << 0;
	pthread_rwlock_unlock(&rw);
	pthread_barrier_wait(&bar);
	r |= 1 << 1;
	sem_post(&sem);
	pthread_once(&once, slow_init); /* a G runs slow_init */
	r |= once_done << 2;
	return (void *)(intptr_t)r;
}

static void *g_barrier(void *arg)
{
	pthread_barrier_wait(&bar);
	return NULL;
}

/* --- a SIGEV_THREAD timer's function waits on a mutex and a condvar --- */
static pthread_mutex_t tm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tcv_main = PTHREAD_COND_INITIALIZER, tcv_cb = PTHREAD_COND_INITIALIZER;
static int cb_in, cb_go;
static sem_t cb_done;

static void tick(union sigval v)
{
	pthread_mutex_lock(&tm); /* main holds it a while */
	cb_in = 1;
	pthread_cond_signal(&tcv_main);
	while (!cb_go)
		pthread_cond_wait(&tcv_cb, &tm);
	pthread_mutex_unlock(&tm);
	sem_post(&cb_done);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	sem_init(&sem, 0, 0);
	sem_init(&s1, 0, 0);
	sem_init(&s2, 0, 0);
	struct job j;
	pthread_t t;

	j = (struct job){ foreign_pingpong };
	t = foreign_start(&j);
	pingpong(0);
	foreign_finish(t, &j);
	CHECK(turn == 2 * ROUNDS, "condvar ping-pong between a foreign thread and a G");

	pthread_mutex_lock(&m);
	released = 0;
	j = (struct job){ foreign_lock_held };
	t = foreign_start(&j);
	sem_wait(&sem);
	sleep_ms(30);
	released = 1;
	pthread_mutex_unlock(&m);
	CHECK(foreign_finish(t, &j) == (void *)1, "foreign thread waits for a mutex a G holds");

	struct job fj[2];
	pthread_t ft[2], gt[2];
	for (int i = 0; i < 2; i++) {
		fj[i] = (struct job){ contend };
		ft[i] = foreign_start(&fj[i]);
		pthread_create(&gt[i], NULL, contend, NULL);
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(gt[i], NULL);
		foreign_finish(ft[i], &fj[i]);
	}
	CHECK(counter == 4L * INCS, "2 foreign threads and 2 Gs contend on one mutex");

	j = (struct job){ foreign_sem };
	t = foreign_start(&j);
	int semok = 1;
	for (int i = 0; i < 100; i++) {
		sem_post(&s1);
		while (sem_wait(&s2) != 0)
			;
	}
	semok &= foreign_finish(t, &j) == (void *)1;
	CHECK(semok, "semaphore ping-pong between a foreign thread and a G");

	pthread_mutex_lock(&mm);
	j = (struct job){ foreign_timeouts };
	t = foreign_start(&j);
	sem_wait(&sem);
	pthread_mutex_unlock(&mm);
	intptr_t r = (intptr_t)foreign_finish(t, &j);
	CHECK(r & 1, "foreign pthread_cond_timedwait (realtime) times out");
	CHECK(r & 2, "foreign pthread_cond_timedwait (monotonic) times out");
	CHECK(r & 4, "foreign sem_timedwait times out");
	CHECK(r & 8, "foreign pthread_mutex_timedlock on a G's mutex times out");
	CHECK(r & 16, "foreign raw FUTEX_WAIT with a timeout times out");

	j = (struct job){ foreign_long_timeout };
	t = foreign_start(&j);
	CHECK(foreign_finish(t, &j) == (void *)1, "foreign realtime timedwait sleeps through without waking");

	flag = 0;
	j = (struct job){ foreign_timed_woken };
	t = foreign_start(&j);
	sem_wait(&sem);
	sleep_ms(20);
	pthread_mutex_lock(&m);
	flag = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	sem_wait(&sem);
	sleep_ms(20);
	sem_post(&s1);
	r = (intptr_t)foreign_finish(t, &j);
	CHECK(r & 1, "foreign pthread_cond_timedwait signalled by a G");
	CHECK(r & 2, "foreign sem_timedwait posted by a G");

	pthread_t g;
	pthread_create(&g, NULL, g_exits_later, NULL);
	j = (struct job){ foreign_join_g, &g };
	t = foreign_start(&j);
	CHECK(foreign_finish(t, &j) == (void *)1, "foreign thread joins a G");

	j = (struct job){ foreign_sleep };
	t = foreign_start(&j);
	CHECK(foreign_finish(t, &j) == (void *)1, "foreign nanosleep, usleep and sched_yield");

	j = (struct job){ foreign_futex };
	t = foreign_start(&j);
	sleep_ms(20);
	__atomic_store_n(&fword, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &fword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	while (__atomic_load_n(&gword, __ATOMIC_ACQUIRE) == 0)
		syscall(SYS_futex, &gword, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	CHECK(foreign_finish(t, &j) == (void *)1, "raw futex wait and wake between a foreign thread and a G");

	if (pipe(pa) || pipe(pb) || pipe(pc))
		return 1;
	j = (struct job){ foreign_io };
	t = foreign_start(&j);
	sem_wait(&sem);
	sleep_ms(20);
	if (write(pa[1], "a", 1) != 1 || write(pb[1], "b", 1) != 1)
		return 1;
	sem_wait(&sem);
	sleep_ms(20);
	if (write(pc[1], "c", 1) != 1)
		return 1;
	r = (intptr_t)foreign_finish(t, &j);
	CHECK(r & 1, "foreign blocking read on a pipe, written by a G");
	CHECK(r & 2, "foreign poll on a pipe");
	CHECK(r & 4, "foreign epoll_wait on a pipe");

	pthread_key_create(&key, destroy);
	int churn_ok = 1;
	for (int round = 0; round < 20; round++) {
		struct job cj[5];
		pthread_t ct[5];
		flag = 0;
		for (int i = 0; i < 5; i++) {
			cj[i] = (struct job){ foreign_churn, &cj[i] };
			ct[i] = foreign_start(&cj[i]);
		}
		sleep_ms(1);
		pthread_mutex_lock(&m);
		flag = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&m);
		for (int i = 0; i < 5; i++)
			churn_ok &= foreign_finish(ct[i], &cj[i]) == NULL;
	}
	CHECK(churn_ok && destroyed == 100, "100 foreign threads wait and exit; their key destructors ran");

	{
		pthread_t ft1, ft2;
		foreign_create(&ft1, foreign_waits_sem, NULL);
		int busy = pthread_tryjoin_np(ft1, NULL);
		sem_post(&s1);
		void *ret = NULL;
		int jr = pthread_join(ft1, &ret);
		CHECK(busy == EBUSY && jr == 0 && ret == (void *)(intptr_t)7,
		      "the program's tryjoin and join of a foreign thread");
		foreign_create(&ft2, foreign_quick, NULL);
		CHECK(pthread_detach(ft2) == 0, "the program's detach of a foreign thread");
	}

	released = 0;
	pthread_barrier_init(&bar, NULL, 3);
	pthread_rwlock_wrlock(&rw);
	j = (struct job){ foreign_misc };
	t = foreign_start(&j);
	sem_wait(&sem);
	sleep_ms(20);
	released = 1;
	pthread_rwlock_unlock(&rw);
	pthread_t b1, b2, o1;
	pthread_create(&b1, NULL, g_barrier, NULL);
	pthread_create(&b2, NULL, g_barrier, NULL);
	pthread_join(b1, NULL);
	pthread_join(b2, NULL);
	sem_wait(&sem);
	pthread_create(&o1, NULL, g_once, NULL);
	r = (intptr_t)foreign_finish(t, &j);
	pthread_join(o1, NULL);
	CHECK(r & 1, "foreign rdlock waits for a G's write lock");
	CHECK(r & 2, "foreign thread and 2 Gs meet at a barrier");
	CHECK((r & 4) && once_runs == 1, "pthread_once: foreign and G, one run");

	sem_init(&cb_done, 0, 0);
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = tick };
	timer_t tmr;
	timer_create(CLOCK_MONOTONIC, &ev, &tmr);
	pthread_mutex_lock(&tm);
	struct itimerspec its = { .it_value = { 0, 5000000 } };
	timer_settime(tmr, 0, &its, NULL);
	sleep_ms(30); /* the timer's thread is waiting for tm by now */
	while (!cb_in)
		pthread_cond_wait(&tcv_main, &tm);
	cb_go = 1;
	pthread_cond_signal(&tcv_cb);
	pthread_mutex_unlock(&tm);
	sem_wait(&cb_done);
	timer_delete(tmr);
	CHECK(cb_in && cb_go, "SIGEV_THREAD timer function waits on a mutex and a condvar");
	return failures != 0;
}
