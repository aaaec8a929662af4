/* A child made with glibc's clone() that shares the caller's memory
 * (CLONE_VM) but not its file descriptor table, as stress-ng's vm-rw
 * stressor makes one: it closes the pipe ends it does not use, talks to
 * the caller over the others and writes to the shared memory, and the
 * caller sees all of it.  Under the shim until stop 58 the child ran with
 * the caller's thread pointer and entered the runtime as the caller's G
 * ("bad G status transition", an abort) and its close() of its own fds
 * took the caller's netpoller registrations away (the caller's reads
 * failed with EBADF).  Also with CLONE_VFORK (the caller's thread waits
 * in the kernel until the child is done), and from another thread.  A
 * signal sent to the child process runs its handler there (the runtime
 * handed it to the caller's main thread, in the parent). */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define STACK (256 * 1024)

struct chat {
	int up[2], down[2]; /* child -> caller, caller -> child */
	volatile int seen;  /* written by the child through the shared memory */
};

static int child(void *arg)
{
	struct chat *c = arg;
	close(c->up[0]);
	close(c->down[1]);
	char b[4];
	if (write(c->up[1], "ping", 4) != 4 || read(c->down[0], b, 4) != 4 || memcmp(b, "pong", 4) != 0)
		return 1;
	c->seen = 1;
	return 0;
}

static volatile pid_t handled_in;

static void on_usr1(int sig)
{
	(void)sig;
	handled_in = (pid_t)syscall(SYS_getpid);
}

/* Says it is ready, then waits for a byte (a handler may run meanwhile). */
static int waiter(void *arg)
{
	struct chat *c = arg;
	char b;
	if (write(c->up[1], "r", 1) != 1)
		return 1;
	while (read(c->down[0], &b, 1) != 1)
		;
	return 0;
}

static int signalled_child(void)
{
	struct chat c = { .seen = 0 };
	char *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED || pipe(c.up) != 0 || pipe(c.down) != 0)
		return 0;
	handled_in = 0;
	pid_t pid = clone(waiter, stack + STACK, CLONE_VM | SIGCHLD, &c);
	char b;
	int st = -1;
	int ok = pid > 0 && read(c.up[0], &b, 1) == 1 && kill(pid, SIGUSR1) == 0 && write(c.down[1], "x", 1) == 1 &&
		 waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 && handled_in == pid;
	close(c.up[0]), close(c.up[1]), close(c.down[0]), close(c.down[1]);
	munmap(stack, STACK);
	return ok;
}

static int quiet(void *arg)
{
	((struct chat *)arg)->seen = 2;
	return 0;
}

/* One exchange with a CLONE_VM child; 1 if everything came through. */
static int exchange(int vfork)
{
	struct chat c = { .seen = 0 };
	char *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return 0;
	int ok = 0;
	if (vfork) {
		pid_t pid = clone(quiet, stack + STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, &c);
		int st = -1;
		ok = pid > 0 && c.seen == 2 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	} else if (pipe(c.up) == 0 && pipe(c.down) == 0) {
		pid_t pid = clone(child, stack + STACK, CLONE_VM | SIGCHLD, &c);
		char b[4];
		int st = -1;
		ok = pid > 0 && read(c.up[0], b, 4) == 4 && memcmp(b, "ping", 4) == 0 && write(c.down[1], "pong", 4) == 4 &&
		     waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 && c.seen == 1;
		/* The caller's own ends are still good after the child closed
		 * its copies of the others. */
		ok = ok && write(c.down[1], "x", 1) == 1 && read(c.down[0], b, 1) == 1;
		close(c.up[0]), close(c.up[1]), close(c.down[0]), close(c.down[1]);
	}
	munmap(stack, STACK);
	return ok;
}

static int rounds_ok(void)
{
	int ok = 1;
	for (long i = 0; i < test_work(50); i++)
		ok &= exchange(0) & exchange(1);
	return ok;
}

static void *worker(void *arg)
{
	*(int *)arg = rounds_ok();
	return NULL;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigaction(SIGUSR1, &sa, NULL);
	CHECK(rounds_ok(), "CLONE_VM children from the initial thread: pipes, shared memory, vfork");
	int wok = 0;
	pthread_t t;
	pthread_create(&t, NULL, worker, &wok);
	pthread_join(t, NULL);
	CHECK(wok, "CLONE_VM children from another thread");
	int sok = 1;
	for (int i = 0; i < 20; i++)
		sok &= signalled_child();
	CHECK(sok, "a signal sent to the child runs its handler in the child");
	CHECK(made_as_gs(1), "the thread was made as a G under the shim");
	return failures != 0;
}
