/* Condvar-heavy synthetic server: connection threads do no work of their
 * own; each request goes on a queue guarded by a mutex and a condition
 * variable, one of WORKERS pool threads takes it, and the connection thread
 * sleeps on its own condition variable until the worker marks it done. */
#include "lineserv.h"
#include <pthread.h>

#define WORKERS 4

struct request {
	const char *line;
	size_t len;
	int done;
	pthread_cond_t done_cv;
	struct request *next;
};

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cv = PTHREAD_COND_INITIALIZER;
static struct request *q_head, **q_tail = &q_head;
static uint64_t sink[WORKERS];

static void *worker(void *arg)
{
	long id = (long)arg;
	for (;;) {
		pthread_mutex_lock(&q_lock);
		while (!q_head)
			pthread_cond_wait(&q_cv, &q_lock);
		struct request *r = q_head;
		q_head = r->next;
		if (!q_head)
			q_tail = &q_head;
		pthread_mutex_unlock(&q_lock);
		sink[id] += lineserv_work(r->line, r->len, 8);
		pthread_mutex_lock(&q_lock);
		r->done = 1;
		pthread_cond_signal(&r->done_cv);
		pthread_mutex_unlock(&q_lock);
	}
	return NULL;
}

void serve_init(void)
{
	for (long i = 0; i < WORKERS; i++) {
		pthread_t t;
		pthread_create(&t, NULL, worker, (void *)i);
	}
}

void serve_line(const char *line, size_t len)
{
	struct request r = { .line = line, .len = len };
	pthread_cond_init(&r.done_cv, NULL);
	pthread_mutex_lock(&q_lock);
	*q_tail = &r;
	q_tail = &r.next;
	pthread_cond_signal(&q_cv);
	while (!r.done)
		pthread_cond_wait(&r.done_cv, &q_lock);
	pthread_mutex_unlock(&q_lock);
	pthread_cond_destroy(&r.done_cv);
}

int main(void)
{
	return lineserv_main();
}
