/* A mutex held by another thread at fork time can be made usable in the
 * child by the handlers: prepare locks it, parent and child unlock it
 * (POSIX pthread_atfork, its rationale's use). */
#include "../conform.h"
#include <sys/wait.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t go, locked;
static void prepare(void) { pthread_mutex_lock(&m); }
static void release(void) { pthread_mutex_unlock(&m); }
static void *fn(void *a)
{
	for (int i = 0; i < 1000; i++) {
		pthread_mutex_lock(&m);
		if (i == 0)
			sem_post(&locked);
		pthread_mutex_unlock(&m);
	}
	sem_wait_ok(&go);
	return NULL;
}
int main(void)
{
	sem_init(&go, 0, 0);
	sem_init(&locked, 0, 0);
	OK(pthread_atfork(prepare, release, release));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&locked);
	pid_t pid = fork();
	if (pid == 0)
		_exit(pthread_mutex_trylock(&m) == 0 ? 0 : 1);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	sem_post(&go);
	join(t);
	pass();
}
