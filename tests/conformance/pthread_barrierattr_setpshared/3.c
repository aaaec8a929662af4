/* A process-shared barrier in shared memory holds a parent and a child
 * process until both arrive (POSIX pthread_barrierattr_setpshared). */
#include "../conform.h"
#include <sys/mman.h>
#include <sys/wait.h>
int main(void)
{
	pthread_barrierattr_t a;
	pthread_barrier_t *b = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	volatile int *flag = (int *)(b + 1);
	CHECK(b != MAP_FAILED);
	OK(pthread_barrierattr_init(&a));
	OK(pthread_barrierattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	OK(pthread_barrier_init(b, &a, 2));
	pid_t pid = fork();
	if (pid == 0) {
		*flag = 1;
		int r = pthread_barrier_wait(b);
		_exit(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD ? 0 : 1);
	}
	int r = pthread_barrier_wait(b);
	CHECK(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
	CHECK(*flag == 1);
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pass();
}
