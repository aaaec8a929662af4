/* A threaded program for ASan and TSan (built with each, check-sanitizers).
 *
 *   san_threads          race-free and leak-free: a producer hands heap
 *                        messages to a consumer through a mutex and condvar
 *                        queue; a child is forked; then holders park on a condvar, each with
 *                        the only pointer to a heap block on its stack, and
 *                        main calls exit() while they wait (LeakSanitizer
 *                        must find those pointers)
 *   san_threads uaf      a thread reads a block it freed (ASan report)
 *   san_threads leak     a thread drops its only pointer to 4242 bytes
 *   san_threads race     two threads increment a global unlocked (TSan) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NMSG 200
#define NHOLD 4

struct msg {
	struct msg *next;
	int value;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static struct msg *head, *tail;
static int nparked, release;
static long consumed;

static void *producer(void *arg)
{
	for (int i = 1; i <= NMSG; i++) {
		struct msg *m = malloc(sizeof *m);
		m->next = NULL;
		m->value = i;
		pthread_mutex_lock(&mu);
		if (tail)
			tail->next = m;
		else
			head = m;
		tail = m;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
	}
	return arg;
}

static void *consumer(void *arg)
{
	for (int got = 0; got < NMSG; got++) {
		pthread_mutex_lock(&mu);
		while (head == NULL)
			pthread_cond_wait(&cv, &mu);
		struct msg *m = head;
		head = m->next;
		if (head == NULL)
			tail = NULL;
		pthread_mutex_unlock(&mu);
		consumed += m->value; /* only this thread writes it; main reads after join */
		free(m);
	}
	return arg;
}

static void *holder(void *arg)
{
	char *volatile block = malloc(1000);
	strcpy(block, "held");
	pthread_mutex_lock(&mu);
	nparked++;
	pthread_cond_broadcast(&cv);
	while (!release)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	free(block);
	return arg;
}

__attribute__((noinline)) static int read_freed(volatile int *p)
{
	return p[3];
}

static void *uaf_worker(void *arg __attribute__((unused)))
{
	int *p = malloc(16 * sizeof *p);
	int *volatile stale = p; /* the compiler's own use-after-free warning stays quiet */
	p[3] = 7;
	free(p);
	return (void *)(long)read_freed(stale);
}

static void *volatile sink;

static void *leaky_worker(void *arg)
{
	sink = malloc(4242);
	memset(sink, 1, 4242);
	sink = NULL;
	return arg;
}

static int racy;
static pthread_barrier_t bar;

static void *racer(void *arg)
{
	pthread_barrier_wait(&bar);
	racy++;
	return arg;
}

static void run2(void *(*fn)(void *), void *(*fn2)(void *))
{
	pthread_t a, b;
	pthread_create(&a, NULL, fn, NULL);
	if (fn2)
		pthread_create(&b, NULL, fn2, NULL);
	pthread_join(a, NULL);
	if (fn2)
		pthread_join(b, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "uaf") == 0) {
		run2(uaf_worker, NULL);
		return 0;
	}
	if (strcmp(mode, "leak") == 0) {
		run2(leaky_worker, NULL);
		printf("leaked\n");
		return 0;
	}
	if (strcmp(mode, "race") == 0) {
		pthread_barrier_init(&bar, NULL, 2);
		run2(racer, racer);
		printf("raced\n"); /* racy itself may be 1 or 2 */
		return 0;
	}
	run2(producer, consumer);
	printf("consumed %ld\n", consumed);
	fflush(stdout);
	pid_t pid = fork(); /* the shim's child starts a thread of its own at once */
	if (pid == 0) {
		printf("child of a threaded fork\n");
		fflush(stdout);
		_exit(3);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	printf("child exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	pthread_t h[NHOLD];
	for (int i = 0; i < NHOLD; i++)
		pthread_create(&h[i], NULL, holder, NULL);
	pthread_mutex_lock(&mu);
	while (nparked < NHOLD)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	printf("%d holders parked\n", NHOLD);
	fflush(stdout);
	exit(0);
}
