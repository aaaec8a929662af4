/* A process that forked waits with timeouts in its main thread: select
 * and poll with no fds (apache2's parent between its maintenance rounds),
 * pselect, ppoll, a timed condition wait and sem_timedwait, each of which
 * must end when its time is up.  Under the shim a thread that forked stays
 * on its OS thread, and such a thread's timers once had nobody to run them
 * when another P was idle: the first wait never ended.  alarm() ends the
 * process if any wait hangs. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define WAIT_MS 50

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Runs one kind of wait twice; true if each lasted its time, and no more
 * than a generous bound (a hang is what alarm() catches). */
static int waits(int kind)
{
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	sem_t sem;
	sem_init(&sem, 0, 0);
	int ok = 1;
	for (int i = 0; i < 2; i++) {
		int64_t t0 = now_ms();
		struct timeval tv = { 0, WAIT_MS * 1000 };
		struct timespec rel = { 0, WAIT_MS * 1000000L };
		struct timespec abs = deadline_in(CLOCK_REALTIME, WAIT_MS * 1000000L);
		int r = 0;
		switch (kind) {
		case 0:
			r = select(0, NULL, NULL, NULL, &tv);
			break;
		case 1:
			r = poll(NULL, 0, WAIT_MS);
			break;
		case 2:
			r = pselect(0, NULL, NULL, NULL, &rel, NULL);
			break;
		case 3:
			r = ppoll(NULL, 0, &rel, NULL);
			break;
		case 4:
			pthread_mutex_lock(&mu);
			r = pthread_cond_timedwait(&cv, &mu, &abs) == ETIMEDOUT ? 0 : -1;
			pthread_mutex_unlock(&mu);
			break;
		case 5:
			r = sem_timedwait(&sem, &abs) == -1 && errno == ETIMEDOUT ? 0 : -1;
			break;
		}
		int64_t took = now_ms() - t0;
		ok &= r == 0 && took >= WAIT_MS - 1 && took < 10000;
	}
	sem_destroy(&sem);
	return ok;
}

static void *idle_thread(void *arg)
{
	(void)arg;
	pause_us(1000);
	return NULL;
}

int main(void)
{
	alarm(60);
	/* A thread made and gone: the runtime is up under the shim. */
	pthread_t t;
	pthread_create(&t, NULL, idle_thread, NULL);
	pthread_join(t, NULL);
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	static const char *names[] = { "select", "poll", "pselect", "ppoll", "pthread_cond_timedwait",
				       "sem_timedwait" };
	for (int k = 0; k < 6; k++) {
		char what[96];
		snprintf(what, sizeof what, "after a fork, main's %s times out", names[k]);
		CHECK(waits(k), what);
	}
	kill(child, SIGTERM);
	int st;
	CHECK(waitpid(child, &st, 0) == child && WIFSIGNALED(st), "the child ends on SIGTERM");
	CHECK(made_as_gs(1), "the thread was made as a G under the shim");
	return failures != 0;
}
