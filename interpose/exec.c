/* Handing fds to other programs.  A child must find the blocking
 * descriptions its parent believes in: before exec (and before spawning
 * a process that inherits fds) every polled fd that survives exec gets
 * its O_NONBLOCK back off, and from then on the parent treats it as a
 * blocking fd too, since the description is shared.  Gs parked on one
 * stay parked (forgetting the fd, as a close does, woke them with EBADF:
 * a thread reading a pipe while another ran system()).  vfork becomes fork:
 * a vfork child would run our interposed calls on the parent's memory
 * and epoll instance. */
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/netpoll.h"
#include "shim/sys.h"
#include "shim/syscall.h"

static void share_inherited(int fd, struct polldesc *pd, void *arg)
{
	(void)arg;
	long fdflags = gmp_syscall(SYS_fcntl, fd, F_GETFD, 0);
	if ((pd->flags & PD_SETNB) && fdflags >= 0 && !(fdflags & FD_CLOEXEC))
		gmp_netpoll_share(fd);
}

static void before_exec(void)
{
	gmp_pd_foreach(share_inherited, NULL);
}

GMP_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	before_exec();
	return GMP_REAL(execve)(path, argv, envp);
}

GMP_EXPORT int execv(const char *path, char *const argv[])
{
	before_exec();
	return GMP_REAL(execv)(path, argv);
}

GMP_EXPORT int execvp(const char *file, char *const argv[])
{
	before_exec();
	return GMP_REAL(execvp)(file, argv);
}

GMP_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	before_exec();
	return GMP_REAL(execvpe)(file, argv, envp);
}

GMP_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	before_exec();
	return GMP_REAL(fexecve)(fd, argv, envp);
}

/* execl and friends: collect the variadic list (and execle's envp). */
#define COLLECT_ARGS(arg0, ap, argv, envp_out)                                                      \
	do {                                                                                       \
		int n_ = 1;                                                                        \
		va_start(ap, arg0);                                                                \
		while (va_arg(ap, char *))                                                         \
			n_++;                                                                      \
		va_end(ap);                                                                        \
		argv = alloca(sizeof(char *) * (size_t)(n_ + 1));                                  \
		argv[0] = (char *)arg0;                                                            \
		va_start(ap, arg0);                                                                \
		for (int i_ = 1; i_ <= n_; i_++)                                                   \
			argv[i_] = va_arg(ap, char *);                                             \
		envp_out = va_arg(ap, char **);                                                    \
		va_end(ap);                                                                        \
	} while (0)

GMP_EXPORT int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	char **argv, **envp;
	COLLECT_ARGS(arg, ap, argv, envp);
	(void)envp;
	return execv(path, argv);
}

GMP_EXPORT int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	char **argv, **envp;
	COLLECT_ARGS(arg, ap, argv, envp);
	(void)envp;
	return execvp(file, argv);
}

GMP_EXPORT int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	char **argv, **envp;
	COLLECT_ARGS(arg, ap, argv, envp);
	return execve(path, argv, envp);
}

GMP_EXPORT int posix_spawn_file_actions_adddup2(posix_spawn_file_actions_t *fa, int fd, int newfd)
{
	gmp_netpoll_share(fd); /* the child will read or write it directly */
	return GMP_REAL(posix_spawn_file_actions_adddup2)(fa, fd, newfd);
}

GMP_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	before_exec();
	/* The caller's task waits in clone(CLONE_VFORK) until the child has
	 * exec'd: a blocking call, as system's. */
	return GMP_BLOCKING_CALL(GMP_REAL(posix_spawn)(pid, path, fa, attr, argv, envp));
}

GMP_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			    const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	before_exec();
	return GMP_BLOCKING_CALL(GMP_REAL(posix_spawnp)(pid, file, fa, attr, argv, envp));
}

GMP_EXPORT pid_t vfork(void)
{
	return fork();
}

GMP_EXPORT FILE *popen(const char *cmd, const char *mode)
{
	before_exec();
	return GMP_BLOCKING_CALL(GMP_REAL(popen)(cmd, mode)); /* a posix_spawn inside */
}

GMP_EXPORT int pclose(FILE *f)
{
	return GMP_BLOCKING_CALL(GMP_REAL(pclose)(f));
}

GMP_EXPORT int system(const char *cmd)
{
	GMP_CANCEL_POINT;
	before_exec();
	return GMP_BLOCKING_CALL(GMP_REAL(system)(cmd));
}
