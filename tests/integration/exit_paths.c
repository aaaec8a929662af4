/* How a threaded process ends.
 *  1. exit() from a thread other than main while main is blocked in a join
 *     and other threads are parked or spinning: atexit handlers run once,
 *     on the calling thread, and the status is exit's (in a child process).
 *  2. main calls pthread_exit with a cleanup handler pushed and threads
 *     still running: the handler runs, the process lives on, and when the
 *     last thread returns the atexit handlers run once and the status is 0
 *     (in a second child, so the parent can check the status).
 *  3. another thread cancels main while main computes; main then calls
 *     printf, a cancellation point inside glibc, which acts by itself
 *     (glibc's own unwind, with no handler of main's in the way, so that it
 *     goes straight to glibc's record under main): main's key destructor
 *     runs, the canceller
 *     joins main and gets PTHREAD_CANCELED, and the process ends with
 *     status 0 when the canceller returns.
 *  4. main, the only thread, calls pthread_exit with a handler pushed:
 *     the handler runs and the process ends with status 0, atexit once. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static sem_t never, started;
static volatile int spin_forever = 1;
static int atexit_runs;

static void at_exit(void)
{
	atexit_runs++;
	printf("  atexit handler, run %d, on %s\n", atexit_runs, atexit_runs == 1 ? "one thread" : "AGAIN");
}

static void *parked(void *arg)
{
	(void)arg;
	sem_post(&started);
	sem_wait(&never);
	return NULL;
}

static void *spinning(void *arg)
{
	(void)arg;
	sem_post(&started);
	while (spin_forever)
		;
	return NULL;
}

static void *exiter(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++)
		sem_wait(&started);
	nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	printf("  a thread calls exit(3)\n");
	exit(3);
}

static void scenario_exit_from_thread(void)
{
	atexit(at_exit);
	pthread_t t, e;
	for (int i = 0; i < 3; i++)
		pthread_create(&t, NULL, parked, NULL);
	pthread_create(&t, NULL, spinning, NULL);
	pthread_create(&e, NULL, exiter, NULL);
	pthread_join(e, NULL);
	printf("  WRONG: main's join returned\n");
	_exit(1);
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int left = 4, main_handled;

/* Each outlives main's pthread_exit: it waits for main's cleanup handler,
 * so the output's order does not depend on how fast a loaded machine
 * runs main. */
static void *worker(void *arg)
{
	nanosleep(&(struct timespec){ 0, 20000000 + 5000000 * (long)arg }, NULL);
	while (!__atomic_load_n(&main_handled, __ATOMIC_ACQUIRE))
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	pthread_mutex_lock(&mu);
	int last = --left == 0;
	pthread_mutex_unlock(&mu);
	if (last)
		printf("  the last thread returns\n");
	return NULL;
}

static void main_handler(void *arg)
{
	printf("  main's cleanup handler: %s\n", (const char *)arg);
	fflush(stdout);
	__atomic_store_n(&main_handled, 1, __ATOMIC_RELEASE);
}

static void scenario_main_pthread_exit(void)
{
	atexit(at_exit);
	pthread_t t;
	for (long i = 0; i < 4; i++) {
		pthread_create(&t, NULL, worker, (void *)i);
		pthread_detach(t);
	}
	pthread_cleanup_push(main_handler, "runs at pthread_exit");
	printf("  main calls pthread_exit\n");
	pthread_exit(NULL);
	pthread_cleanup_pop(0);
}

static pthread_t main_id;
static volatile int main_cancelled;

static void *canceller(void *arg)
{
	(void)arg;
	pthread_cancel(main_id);
	main_cancelled = 1;
	void *res = NULL;
	int jr = pthread_join(main_id, &res);
	printf("  the canceller joined main: %d, %s\n", jr, res == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "WRONG");
	return NULL;
}

static void key_dtor(void *v)
{
	printf("  main's key destructor: %s\n", (const char *)v);
}

static void scenario_main_cancelled(void)
{
	atexit(at_exit);
	main_id = pthread_self();
	pthread_key_t key;
	pthread_key_create(&key, key_dtor);
	pthread_setspecific(key, "main cancelled in printf");
	pthread_t t;
	pthread_create(&t, NULL, canceller, NULL);
	while (!main_cancelled)
		;
	printf("  WRONG: main's printf ran\n");
	_exit(1);
}

static void scenario_main_alone(void)
{
	atexit(at_exit);
	pthread_cleanup_push(main_handler, "main alone");
	pthread_exit(NULL);
	pthread_cleanup_pop(0);
}

static void run(const char *title, void (*fn)(void))
{
	printf("%s:\n", title);
	pid_t pid = fork();
	if (pid == 0) {
		fn();
		_exit(1);
	}
	int st;
	waitpid(pid, &st, 0);
	if (WIFEXITED(st))
		printf("  exit status %d\n", WEXITSTATUS(st));
	else
		printf("  killed by signal %d\n", WTERMSIG(st));
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	sem_init(&never, 0, 0);
	sem_init(&started, 0, 0);
	run("exit() from a thread", scenario_exit_from_thread);
	run("pthread_exit from main", scenario_main_pthread_exit);
	run("main cancelled", scenario_main_cancelled);
	run("pthread_exit from main, the only thread", scenario_main_alone);
	return 0;
}
