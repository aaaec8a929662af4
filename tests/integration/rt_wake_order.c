/* Wait queues wake SCHED_FIFO waiters highest priority first (FIFO among
 * equals): condition variables (signal and broadcast), semaphores,
 * rwlocks and barriers, as NPTL's do on the kernel's priority-ordered
 * futex queues.  Each scene queues threads of priorities 5, 20 and 10 in
 * that order, then releases them. */
#define _GNU_SOURCE
#include <semaphore.h>

#include "rt.h"

static const int prios[3] = { 5, 20, 10 };
static pthread_t t[3];

static void start(void *(*fn)(void *))
{
	for (int i = 0; i < 3; i++) {
		rt_create(&t[i], fn, (void *)(long)prios[i], SCHED_FIFO, prios[i]);
		rt_wait_parked(i + 1);
	}
}

static void join_all(void)
{
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
}

static void report(const char *what, int from)
{
	char line[128];
	printf("%s: %s\n", what, rt_order(from, 3));
	snprintf(line, sizeof line, "%s: highest priority first", what);
	CHECK(strcmp(rt_order(from, 3), "20 10 5") == 0, line);
}

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int tokens, go;

static void *cond_one(void *arg)
{
	pthread_mutex_lock(&m);
	while (tokens == 0)
		pthread_cond_wait(&c, &m);
	tokens--;
	rt_note((int)(long)arg);
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *cond_all(void *arg)
{
	pthread_mutex_lock(&m);
	while (!go)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	rt_note((int)(long)arg);
	return NULL;
}

static sem_t sem;

static void *sem_one(void *arg)
{
	sem_wait(&sem);
	rt_note((int)(long)arg);
	return NULL;
}

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

static void *writer(void *arg)
{
	pthread_rwlock_wrlock(&rw);
	rt_note((int)(long)arg);
	pthread_rwlock_unlock(&rw);
	return NULL;
}

static pthread_barrier_t bar;

static void *barrier(void *arg)
{
	pthread_barrier_wait(&bar);
	rt_note((int)(long)arg);
	return NULL;
}

int main(void)
{
	rt_setup();
	int from = 0;

	/* One signal at a time; the woken thread reports before the next. */
	start(cond_one);
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&m);
		tokens++;
		pthread_cond_signal(&c);
		pthread_mutex_unlock(&m);
		rt_wait_log(from + i + 1);
	}
	join_all();
	report("pthread_cond_signal", from);
	from += 3;

	start(cond_all);
	pthread_mutex_lock(&m);
	go = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	join_all();
	report("pthread_cond_broadcast", from);
	from += 3;

	sem_init(&sem, 0, 0);
	start(sem_one);
	for (int i = 0; i < 3; i++) {
		sem_post(&sem);
		rt_wait_log(from + i + 1);
	}
	join_all();
	report("sem_post", from);
	from += 3;

	pthread_rwlock_wrlock(&rw);
	start(writer);
	pthread_rwlock_unlock(&rw);
	join_all();
	report("pthread_rwlock_unlock to writers", from);
	from += 3;

	pthread_barrier_init(&bar, NULL, 4);
	start(barrier);
	pthread_barrier_wait(&bar);
	join_all();
	report("pthread_barrier_wait", from);

	rt_teardown();
	CHECK(made_as_gs(15), "threads ran as Gs");
	return failures != 0;
}
