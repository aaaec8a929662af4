/* Processes of the SCHED_FIFO policy blocked on a named semaphore: each
 * sem_post unblocks the highest-priority one (POSIX sem_post, with the
 * Process Scheduling option).  The waiters are forked children of one
 * thread each, which set their own policy with sched_setscheduler(0). */
#include <fcntl.h>
#include <sys/wait.h>
#include "../conform.h"
int main(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
		unsupported("the kernel refuses SCHED_FIFO to this process");
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	char name[64];
	snprintf(name, sizeof name, "/conform_sem_post_5_%d", (int)getpid());
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	CHECK(s != SEM_FAILED);
	int fd[2];
	CHECK(pipe(fd) == 0);
	static const int prio[3] = { 5, 20, 10 }, want[3] = { 20, 10, 5 };
	pid_t kid[3];
	for (int i = 0; i < 3; i++) {
		kid[i] = fork();
		CHECK(kid[i] >= 0);
		if (kid[i] == 0) {
			struct sched_param p = { .sched_priority = prio[i] };
			if (sched_setscheduler(0, SCHED_FIFO, &p) != 0 || write(fd[1], "r", 1) != 1)
				_exit(2);
			if (sem_wait(s) != 0)
				_exit(3);
			char c = (char)prio[i];
			_exit(write(fd[1], &c, 1) == 1 ? 0 : 4);
		}
		char c;
		CHECK(read(fd[0], &c, 1) == 1 && c == 'r');
		settle(100); /* into sem_wait, in this order */
	}
	for (int i = 0; i < 3; i++) {
		char c;
		CHECK(sem_post(s) == 0);
		CHECK(read(fd[0], &c, 1) == 1);
		if (c != want[i]) {
			for (int k = 0; k < 3; k++)
				kill(kid[k], SIGKILL);
			sem_unlink(name);
			FAIL("a lower-priority child was woken first");
		}
	}
	for (int i = 0; i < 3; i++) {
		int st;
		CHECK(waitpid(kid[i], &st, 0) == kid[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	sem_close(s);
	sem_unlink(name);
	pass();
}
