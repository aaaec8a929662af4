/* Cleanup handlers and cancelability state, with C's pthread_cleanup_push
 * (no -fexceptions): nested handlers, pop with execute 0 and 1, handlers
 * run by pthread_exit and by cancellation in reverse order, a request made
 * while cancellation is disabled staying pending until enabled, deferred
 * cancellation not acting outside cancellation points, asynchronous
 * cancellation of a loop in the program's own code, cancel of self, of a
 * detached thread, and of a thread that has returned but is not joined.
 * Built with -fexceptions too (meson.build): a cleanup region then covers
 * only calls, so the asynchronously cancelled loop runs no handler there,
 * natively as under the shim. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static sem_t go, ready, done;
static volatile unsigned long spins;
static volatile int stop_spinning;

static volatile int marks; /* progress of a target, printed by its handler */
static int self_rc = -1;

static void say(void *arg)
{
	printf("  handler %s\n", (const char *)arg);
}

/* printf is itself a cancellation point inside glibc: a cancelled target
 * records its progress and lets its handler print it. */
static void say_marks(void *arg)
{
	printf("  handler %s (progress %d)\n", (const char *)arg, marks);
}

static void pause_ms(int ms)
{
	nanosleep(&(struct timespec){ 0, ms * 1000000L }, NULL);
}

static void *exit_nested(void *arg)
{
	(void)arg;
	pthread_cleanup_push(say, "A (outermost)");
	pthread_cleanup_push(say, "B");
	pthread_cleanup_push(say, "C (popped with execute 1)");
	pthread_cleanup_pop(1);
	pthread_cleanup_push(say, "D (popped with execute 0: must not run)");
	pthread_cleanup_pop(0);
	pthread_cleanup_push(say, "E (innermost)");
	pthread_exit((void *)7);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}

#pragma GCC diagnostic ignored "-Winfinite-recursion"
static int maxdepth = 2;

static void *exit_deep(int depth)
{
	pthread_cleanup_push(say, depth == 2 ? "frame 2" : depth == 1 ? "frame 1" : "frame 0");
	if (depth < maxdepth)
		exit_deep(depth + 1);
	else
		pthread_exit((void *)9);
	pthread_cleanup_pop(0);
	return NULL;
}

static void *exit_in_callee(void *arg)
{
	(void)arg;
	return exit_deep(0);
}

static void *disabled(void *arg)
{
	(void)arg;
	int old;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	printf("  old state %s\n", old == PTHREAD_CANCEL_ENABLE ? "enabled" : "disabled");
	marks = 0;
	pthread_cleanup_push(say_marks, "disabled-then-enabled, want progress 3");
	sem_post(&ready);
	sem_wait(&go); /* a cancellation point, but cancellation is off */
	marks = 1;
	pause_ms(1);
	marks = 2;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
	marks = 3; /* deferred: nothing happens until a cancellation point */
	pthread_testcancel();
	printf("  WRONG: testcancel returned\n");
	pthread_cleanup_pop(0);
	return NULL;
}

static void *async_spin(void *arg)
{
	(void)arg;
	int old;
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old);
	pthread_cleanup_push(say, "async");
	sem_post(&ready);
	while (!stop_spinning)
		spins++;
	pthread_cleanup_pop(0);
	return NULL;
}

static void *deferred_spin(void *arg)
{
	(void)arg;
	marks = 0;
	pthread_cleanup_push(say_marks, "deferred, want progress 1");
	sem_post(&ready);
	while (!stop_spinning)
		spins++;
	marks = 1; /* the loop ended without being cancelled */
	pthread_testcancel();
	pthread_cleanup_pop(0);
	return NULL;
}

static void *self_cancel(void *arg)
{
	(void)arg;
	marks = 0;
	pthread_cleanup_push(say_marks, "self, want progress 1");
	self_rc = pthread_cancel(pthread_self());
	marks = 1; /* still running after cancelling itself */
	pthread_testcancel();
	pthread_cleanup_pop(0);
	return NULL;
}

static void posted(void *arg)
{
	(void)arg;
	sem_post(&done);
}

static void *detached(void *arg)
{
	(void)arg;
	pthread_cleanup_push(posted, NULL);
	sem_post(&ready);
	for (;;)
		sem_wait(&go);
	pthread_cleanup_pop(0);
	return NULL;
}

static void *returns(void *arg)
{
	(void)arg;
	sem_post(&ready);
	return (void *)42;
}

static void report(const char *what, pthread_t t, void *want)
{
	void *res = NULL;
	int jr = pthread_join(t, &res);
	printf("  %s: join %d, result %s\n", what, jr,
	       res == want ? "as expected" : res == PTHREAD_CANCELED ? "PTHREAD_CANCELED (WRONG)" : "WRONG");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	sem_init(&go, 0, 0);
	sem_init(&ready, 0, 0);
	sem_init(&done, 0, 0);
	pthread_t t;

	printf("pthread_exit with nested handlers:\n");
	pthread_create(&t, NULL, exit_nested, NULL);
	report("exit_nested", t, (void *)7);

	printf("pthread_exit three calls deep:\n");
	pthread_create(&t, NULL, exit_in_callee, NULL);
	report("exit_in_callee", t, (void *)9);

	printf("cancel while disabled:\n");
	pthread_create(&t, NULL, disabled, NULL);
	sem_wait(&ready);
	pause_ms(20);
	printf("  pthread_cancel = %d\n", pthread_cancel(t));
	pause_ms(20);
	sem_post(&go);
	report("disabled", t, PTHREAD_CANCELED);

	printf("asynchronous cancel of a loop:\n");
	pthread_create(&t, NULL, async_spin, NULL);
	sem_wait(&ready);
	pause_ms(20);
	/* Printed after the join: the handler may print before
	 * pthread_cancel even returns. */
	int async_rc = pthread_cancel(t);
	report("async_spin", t, PTHREAD_CANCELED);
	printf("  pthread_cancel = %d\n", async_rc);

	printf("deferred cancel of a loop:\n");
	pthread_create(&t, NULL, deferred_spin, NULL);
	sem_wait(&ready);
	pause_ms(20);
	printf("  pthread_cancel = %d\n", pthread_cancel(t));
	pause_ms(20);
	stop_spinning = 1;
	report("deferred_spin", t, PTHREAD_CANCELED);

	printf("cancel of self:\n");
	pthread_create(&t, NULL, self_cancel, NULL);
	report("self_cancel", t, PTHREAD_CANCELED);
	printf("  pthread_cancel(self) returned %d\n", self_rc);

	printf("cancel of a detached thread:\n");
	pthread_attr_t da;
	pthread_attr_init(&da);
	pthread_attr_setdetachstate(&da, PTHREAD_CREATE_DETACHED);
	pthread_create(&t, &da, detached, NULL);
	sem_wait(&ready);
	pause_ms(20);
	printf("  pthread_cancel = %d\n", pthread_cancel(t));
	sem_wait(&done);
	printf("  its handler ran\n");

	printf("cancel of a thread that returned and is not joined yet:\n");
	pthread_create(&t, NULL, returns, NULL);
	sem_wait(&ready);
	pause_ms(20);
	printf("  pthread_cancel = %d\n", pthread_cancel(t));
	report("returns", t, (void *)42);
	return 0;
}
