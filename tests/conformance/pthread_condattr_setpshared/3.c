/* A process-shared condition variable and mutex in shared memory let a child
 * process wake the parent (POSIX pthread_condattr_setpshared). */
#include "../conform.h"
#include <sys/mman.h>
#include <sys/wait.h>
struct shared { pthread_mutex_t m; pthread_cond_t c; int flag; };
int main(void)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	struct shared *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(s != MAP_FAILED);
	OK(pthread_mutexattr_init(&ma));
	OK(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED));
	OK(pthread_condattr_init(&ca));
	OK(pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED));
	OK(pthread_mutex_init(&s->m, &ma));
	OK(pthread_cond_init(&s->c, &ca));
	OK(pthread_mutex_lock(&s->m));
	pid_t pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(&s->m);
		s->flag = 1;
		pthread_cond_signal(&s->c);
		pthread_mutex_unlock(&s->m);
		_exit(0);
	}
	while (!s->flag)
		OK(pthread_cond_wait(&s->c, &s->m));
	OK(pthread_mutex_unlock(&s->m));
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pass();
}
