/* Issue 19 (c): forked children with different SCHED_FIFO priorities wait
 * on a named semaphore; each sem_post wakes the highest-priority child.
 * The children are processes of one thread: their sched_setscheduler(0)
 * reaches the kernel under the shim too, which orders the waiters of the
 * process-shared futex. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <semaphore.h>
#include <sys/wait.h>

#include "rt.h"

int main(void)
{
	rt_require();
	char name[64];
	snprintf(name, sizeof name, "/gmp_rt_named_%d", (int)getpid());
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	if (s == SEM_FAILED) {
		perror("sem_open");
		return 1;
	}
	int fd[2];
	if (pipe(fd) != 0)
		return 1;
	static const int prios[3] = { 5, 20, 10 };
	pid_t kids[3];
	for (int i = 0; i < 3; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			struct sched_param sp = { .sched_priority = prios[i] };
			if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
				_exit(2);
			if (sem_wait(s) != 0)
				_exit(3);
			char c = (char)prios[i];
			_exit(write(fd[1], &c, 1) == 1 ? 0 : 4);
		}
		/* Queue them in this order: the child's one M (natively, its
		 * thread) asleep in the futex before the next one forks. */
		char path[384], line[128];
		long want = (long)(uintptr_t)s;
		int asleep = 0;
		for (int tries = 0; tries < 10000 && !asleep; tries++) {
			DIR *d;
			snprintf(path, sizeof path, "/proc/%d/task", (int)kids[i]);
			if ((d = opendir(path))) {
				struct dirent *e;
				while (!asleep && (e = readdir(d))) {
					if (e->d_name[0] == '.')
						continue;
					snprintf(path, sizeof path, "/proc/%d/task/%s/syscall", (int)kids[i], e->d_name);
					FILE *f = fopen(path, "r");
					if (!f)
						continue;
					long nr, a0;
					if (fgets(line, sizeof line, f) && sscanf(line, "%ld %lx", &nr, &a0) == 2)
						asleep = nr == SYS_futex && a0 == want;
					fclose(f);
				}
				closedir(d);
			}
			if (!asleep)
				usleep(1000);
		}
		if (!asleep)
			fprintf(stderr, "child %d never slept in sem_wait\n", i);
	}
	char order[32] = "";
	for (int i = 0; i < 3; i++) {
		sem_post(s);
		char c;
		if (read(fd[0], &c, 1) != 1)
			break;
		snprintf(order + strlen(order), sizeof order - strlen(order), "%s%d", i ? " " : "", c);
	}
	int ok = 1;
	for (int i = 0; i < 3; i++) {
		int st;
		waitpid(kids[i], &st, 0);
		ok &= WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	sem_close(s);
	sem_unlink(name);
	printf("children woken in the order: %s\n", order);
	CHECK(ok, "every child waited and was woken");
	CHECK(strcmp(order, "20 10 5") == 0, "sem_post on a named semaphore wakes the highest-priority child");
	return failures != 0;
}
