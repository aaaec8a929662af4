/* fork while other threads are busy with mutexes, condvars and sleeps:
 * the child has only the forking thread, can create and join threads of
 * its own at once (which sleep and time out on realtime deadlines), and
 * exits cleanly; the parent carries on. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long counter;
static volatile int stop;

static void *busy(void *arg)
{
	while (!stop) {
		pthread_mutex_lock(&mu);
		counter++;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
		struct timespec ts = { 0, 1000 };
		nanosleep(&ts, NULL);
	}
	return arg;
}

static pthread_cond_t child_cv = PTHREAD_COND_INITIALIZER;

static void *child_work(void *arg)
{
	long *sum = arg;
	/* Timers work in the child: a sleep, and a timed wait on a realtime
	 * deadline that must time out, not early. */
	struct timespec ts = { 0, 1000000 }, dl, now;
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&mu);
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_nsec += 2000000;
	if (dl.tv_nsec >= 1000000000) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000;
	}
	int r = pthread_cond_timedwait(&child_cv, &mu, &dl);
	clock_gettime(CLOCK_REALTIME, &now);
	if (r == ETIMEDOUT && (now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec)))
		*sum += 1;
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int in_child(void)
{
	/* The mutex may have been held by a thread that no longer exists in
	 * the child: POSIX leaves that undefined, so use fresh objects. */
	pthread_mutex_init(&mu, NULL);
	pthread_cond_init(&child_cv, NULL);
	long sum = 0;
	pthread_t t[8];
	for (int i = 0; i < 8; i++)
		if (pthread_create(&t[i], NULL, child_work, &sum) != 0)
			return 2;
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	return sum == 8 ? 0 : 3;
}

int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, busy, NULL);
	int ok = 0;
	for (int round = 0; round < 20; round++) {
		/* Fork only once the other threads are demonstrably running. */
		pthread_mutex_lock(&mu);
		long seen = counter;
		while (counter < seen + 10) {
			/* A realtime deadline: the child inherits the clock watch. */
			struct timespec dl;
			clock_gettime(CLOCK_REALTIME, &dl);
			dl.tv_sec += 10;
			pthread_cond_timedwait(&cv, &mu, &dl);
		}
		pthread_mutex_unlock(&mu);
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0)
			_exit(in_child());
		int status;
		waitpid(pid, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			ok++;
		else
			fprintf(stderr, "child %d: status %#x\n", round, status);
	}
	stop = 1;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("%d of 20 children created and joined 8 threads\n", ok);
	printf("parent threads kept running: %s\n", counter >= 200 ? "yes" : "no");
	return ok == 20 ? 0 : 1;
}
