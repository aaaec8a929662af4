/* Pipes handed to other programs stay blocking for them: a child `cat`
 * reading a pipe the parent fills slowly would fail with EAGAIN if the
 * shim left its polling O_NONBLOCK on the description.  Covered: fork +
 * dup2 + exec, posix_spawn with a dup2 action, popen, and system. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

extern char **environ;

static const char *chunks[] = { "one\n", "two two\n", "three three three\n", "four\n", "five!\n" };

static void feed(int fd)
{
	for (int i = 0; i < 5; i++) {
		usleep(50000); /* the child finds its stdin empty meanwhile */
		if (write(fd, chunks[i], strlen(chunks[i])) < 0)
			perror("write");
	}
	close(fd);
}

static int read_all(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;
	while (n < cap - 1 && (r = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = 0;
	close(fd);
	return (int)n;
}

static int expected(const char *got)
{
	char want[256] = "";
	for (int i = 0; i < 5; i++)
		strcat(want, chunks[i]);
	return strcmp(got, want) == 0;
}

int main(void)
{
	alarm(60);
	int in[2], out[2];
	char buf[256];
	int st;

	pipe(in);
	pipe(out);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		execl("/bin/sh", "sh", "-c", "exec cat", (char *)NULL);
		_exit(127);
	}
	close(in[0]), close(out[1]);
	feed(in[1]);
	read_all(out[0], buf, sizeof buf);
	waitpid(pid, &st, 0);
	CHECK(expected(buf) && WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork+exec cat over pipes: all data, exit 0");

	pipe(in);
	pipe(out);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	char *argv[] = { "cat", NULL };
	int err = posix_spawnp(&pid, "cat", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]), close(out[1]);
	feed(in[1]);
	read_all(out[0], buf, sizeof buf);
	waitpid(pid, &st, 0);
	CHECK(err == 0 && expected(buf) && WIFEXITED(st) && WEXITSTATUS(st) == 0, "posix_spawn cat: all data, exit 0");

	char dir[] = "/tmp/exec_pipe.XXXXXX", cmd[128], file[96];
	mkdtemp(dir);
	snprintf(file, sizeof file, "%s/out", dir);
	snprintf(cmd, sizeof cmd, "cat > %s", file);
	FILE *f = popen(cmd, "w");
	for (int i = 0; i < 5; i++) {
		usleep(50000);
		fputs(chunks[i], f);
		fflush(f);
	}
	int pst = pclose(f);
	FILE *r = fopen(file, "r");
	size_t n = fread(buf, 1, sizeof buf - 1, r);
	buf[n] = 0;
	fclose(r);
	unlink(file);
	rmdir(dir);
	CHECK(expected(buf) && WIFEXITED(pst) && WEXITSTATUS(pst) == 0, "popen cat > file: all data, exit 0");

	st = system("exit 3");
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "system(\"exit 3\") returns status 3");
	return failures != 0;
}
