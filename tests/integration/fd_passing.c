/* fds passed to another program over a Unix socket (SCM_RIGHTS), as
 * Python's multiprocessing forkserver hands its workers their pipes and
 * servers hand over connections: the receiver must find each description
 * in the mode the sender's program set.  The runtime had made the pipe
 * and the socket non-blocking underneath its own program, which never
 * sees that, but the receiver, a new program, did: its F_GETFL said
 * O_NONBLOCK and its blocking read said EAGAIN (the forkserver worker's
 * BlockingIOError).  The sender keeps using its copies: a thread blocks
 * in a read of the passed pipe while main writes, at 1 P too.
 *
 * Part 2: a socket that is close-on-exec in the parent, handed to an
 * exec'd child that cleared the flag after the fork (subprocess's
 * pass_fds; Python's spawn start method).  The child gives it back its
 * blocking mode before the exec, for the program it runs; the parent,
 * which had taken it for non-blocking, then blocked the M holding its
 * only P in a read of it (multiprocessing's spawn hung at 1 P).
 *
 * Part 3: system() and popen() while a thread waits in a read of an
 * inheritable pipe: the read goes on waiting and gets the data written
 * after them (it said EBADF: the runtime forgot the fd, as for a close,
 * to make it blocking for the child).  And fdopen() of a socket another
 * thread is reading, to write it through stdio. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

enum { PIPE_NB = 1, PIPE_READ = 2, SOCK_NB = 4, SOCK_READ = 8, NO_FDS = 16 };

/* The receiver: takes two fds from ctl, says it is ready, and reads
 * each (blocking) once its data comes.  Exits with the failure bits. */
static int receiver(int ctl)
{
	char byte, cbuf[CMSG_SPACE(2 * sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	struct cmsghdr *c;
	if (recvmsg(ctl, &msg, 0) != 1 || (c = CMSG_FIRSTHDR(&msg)) == NULL || c->cmsg_type != SCM_RIGHTS)
		return NO_FDS;
	int fds[2];
	memcpy(fds, CMSG_DATA(c), sizeof fds);
	int bad = 0;
	bad |= (fcntl(fds[0], F_GETFL) & O_NONBLOCK) ? PIPE_NB : 0;
	bad |= (fcntl(fds[1], F_GETFL) & O_NONBLOCK) ? SOCK_NB : 0;
	if (write(ctl, "r", 1) != 1)
		return NO_FDS;
	char buf[16] = { 0 };
	if (read(fds[0], buf, 5) != 5 || memcmp(buf, "hello", 5) != 0)
		bad |= PIPE_READ;
	if (read(fds[1], buf, 5) != 5 || memcmp(buf, "world", 5) != 0)
		bad |= SOCK_READ;
	return bad;
}

static int pipefd[2];
static char again[8];

static void *reader(void *arg)
{
	(void)arg;
	ssize_t n = read(pipefd[0], again, 5);
	return (void *)n;
}

/* Part 2's child, exec'd: says so on stdout, then holds the socket until
 * its stdin closes. */
static int holder(void)
{
	char c;
	if (write(1, "r", 1) != 1)
		return 1;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static int shared;
static char got[8];

static void *shared_reader(void *arg)
{
	(void)arg;
	return (void *)read(shared, got, 4);
}

static void handed_on_after_fork(char *self)
{
	int s[2], in[2], out[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s) != 0 || pipe(in) != 0 || pipe(out) != 0)
		exit(1);
	pid_t child = fork();
	if (child == 0) {
		fcntl(s[0], F_SETFD, 0);
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl("/proc/self/exe", self, "holder", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	char c;
	CHECK(read(out[0], &c, 1) == 1, "an exec'd child shares a socket that is close-on-exec here");
	shared = s[0];
	pthread_t t;
	pthread_create(&t, NULL, shared_reader, NULL);
	pause_us(20000); /* its read finds nothing yet */
	CHECK(write(s[1], "ping", 4) == 4, "main writes while a thread of its reads that socket");
	void *n;
	pthread_join(t, &n);
	CHECK((long)n == 4 && memcmp(got, "ping", 4) == 0, "that thread's read got it");
	close(in[1]);
	int status = -1;
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child held it and exited");
}

static int spawnpipe[2];
static char spawnbuf[8];

static void *spawn_reader(void *arg)
{
	(void)arg;
	return (void *)read(spawnpipe[0], spawnbuf, 4);
}

static void spawned_while_waiting(void)
{
	if (pipe(spawnpipe) != 0)
		exit(1);
	pthread_t t;
	pthread_create(&t, NULL, spawn_reader, NULL);
	pause_us(20000); /* it waits in its read */
	CHECK(system("true") == 0, "system() while a thread reads an inheritable pipe");
	FILE *f = popen("echo hi", "r");
	char line[8] = { 0 };
	CHECK(f && fgets(line, sizeof line, f) && strcmp(line, "hi\n") == 0 && pclose(f) == 0,
	      "popen() meanwhile");
	CHECK(write(spawnpipe[1], "data", 4) == 4, "the pipe written after them");
	void *n;
	pthread_join(t, &n);
	CHECK((long)n == 4 && memcmp(spawnbuf, "data", 4) == 0, "the waiting read got the data");

	int s[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) != 0)
		exit(1);
	spawnpipe[0] = s[0];
	pthread_create(&t, NULL, spawn_reader, NULL);
	pause_us(20000);
	f = fdopen(s[0], "w");
	char c[4] = { 0 };
	CHECK(f && fputs("out", f) >= 0 && fflush(f) == 0 && read(s[1], c, 3) == 3 && strcmp(c, "out") == 0,
	      "fdopen() of a socket a thread reads, written through stdio");
	CHECK(write(s[1], "back", 4) == 4, "the peer answers");
	pthread_join(t, &n);
	CHECK((long)n == 4 && memcmp(spawnbuf, "back", 4) == 0, "the reading thread got it");
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "receiver") == 0)
		return receiver(atoi(argv[2]));
	if (argc == 2 && strcmp(argv[1], "holder") == 0)
		return holder();
	int data[2], ctl[2];
	/* Close-on-exec, as Python makes them: the receiver has them only
	 * through the socket (an fd the exec kept would have been given its
	 * blocking mode back before the exec). */
	if (pipe2(pipefd, O_CLOEXEC) != 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, data) != 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, ctl) != 0)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		char arg[16];
		snprintf(arg, sizeof arg, "%d", ctl[1]);
		execl("/proc/self/exe", argv[0], "receiver", arg, (char *)NULL);
		_exit(127);
	}
	close(ctl[1]);
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = { 0 };
	struct iovec iov = { "f", 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(2 * sizeof(int));
	int pass[2] = { pipefd[0], data[1] };
	memcpy(CMSG_DATA(c), pass, sizeof pass);
	CHECK(sendmsg(ctl[0], &msg, 0) == 1, "a pipe and a socket sent over SCM_RIGHTS");
	char ready;
	CHECK(read(ctl[0], &ready, 1) == 1, "the receiver has them");
	pause_us(20000); /* let its reads find nothing yet */
	if (write(pipefd[1], "hello", 5) != 5 || write(data[0], "world", 5) != 5)
		return 1;
	int status = -1;
	waitpid(child, &status, 0);
	int bad = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
	CHECK(!(bad & NO_FDS) && bad != 127, "the receiver ran and got the fds");
	CHECK(!(bad & PIPE_NB), "the pipe is blocking in the receiver, as its sender set it");
	CHECK(!(bad & SOCK_NB), "the socket too");
	CHECK(!(bad & PIPE_READ), "a blocking read of the pipe waited for the data");
	CHECK(!(bad & SOCK_READ), "a blocking read of the socket waited for the data");

	/* The sender's own copies: a thread blocks reading the pipe. */
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	pause_us(20000);
	CHECK(write(pipefd[1], "again", 5) == 5, "the sender writes its pipe while a thread of its waits");
	void *n;
	pthread_join(t, &n);
	CHECK((long)n == 5 && memcmp(again, "again", 5) == 0, "that thread's blocking read got it");
	CHECK(!(fcntl(pipefd[0], F_GETFL) & O_NONBLOCK), "the sender's program still sees a blocking pipe");
	handed_on_after_fork(argv[0]);
	spawned_while_waiting();
	return failures != 0;
}
