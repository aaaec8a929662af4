/* main calls pthread_exit(NULL): the process lives on until the last thread
 * ends; the last thread to finish prints the result and returns, which
 * ends the process with status 0 after running the atexit handlers once.
 * One thread joins the main thread (allowed: main is joinable) and must get
 * NULL back once main has exited.  Workers only finish after main has
 * announced its exit, so the output order is fixed. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NWORKERS 8

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int main_exiting;
static int remaining = NWORKERS + 1; /* the workers and the joiner */
static long total;
static int atexit_runs;
static int join_rc = -1;
static void *join_value = (void *)1;
static pthread_t main_thread;

static void at_exit(void)
{
	atexit_runs++;
	printf("atexit handler ran %d time(s), total %ld\n", atexit_runs, total);
	fflush(stdout);
}

static void wait_for_main_exit_announcement(void)
{
	pthread_mutex_lock(&mu);
	while (!main_exiting)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

/* Called by each thread once its work is done, under mu. */
static void finish_locked(void)
{
	if (--remaining > 0)
		return;
	long want = 0;
	for (long a = 0; a < NWORKERS; a++)
		for (long i = 0; i < 100000; i++)
			want += i % (a + 2);
	printf("last thread: total %s\n", total == want ? "correct" : "WRONG");
	printf("join of the main thread: %s\n", join_rc == 0 && join_value == NULL ? "returned NULL" : "FAILED");
	fflush(stdout);
	if (total != want || join_rc != 0 || join_value != NULL) {
		fprintf(stderr, "main_pthread_exit: total %ld (want %ld), join of main %s, value %p\n", total, want,
			strerror(join_rc), join_value);
		exit(1);
	}
	/* Returning from the last thread ends the process with status 0. */
}

static void *worker(void *arg)
{
	long sum = 0;
	for (long i = 0; i < 100000; i++)
		sum += i % ((long)arg + 2);
	wait_for_main_exit_announcement();
	struct timespec ts = { 0, 2000000 };
	nanosleep(&ts, NULL); /* well after main's pthread_exit */
	pthread_mutex_lock(&mu);
	total += sum;
	finish_locked();
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void *joiner(void *arg)
{
	(void)arg;
	void *v = (void *)1;
	int rc = pthread_join(main_thread, &v);
	pthread_mutex_lock(&mu);
	join_rc = rc;
	join_value = v;
	finish_locked();
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(void)
{
	atexit(at_exit);
	main_thread = pthread_self();
	pthread_t t;
	for (long i = 0; i < NWORKERS; i++) {
		if (pthread_create(&t, NULL, worker, (void *)i) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
		pthread_detach(t);
	}
	if (pthread_create(&t, NULL, joiner, NULL) != 0) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}
	pthread_detach(t);
	printf("main: %d workers started, calling pthread_exit\n", NWORKERS);
	fflush(stdout);
	pthread_mutex_lock(&mu);
	main_exiting = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_exit(NULL);
}
