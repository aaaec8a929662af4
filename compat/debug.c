#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch.h"
#include "debug.h"

struct gmp_debug gmp_debug;

static void write_all(const char *s, size_t n)
{
	while (n > 0) {
		long w = gmp_arch_syscall(SYS_write, 2, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

void gmp_printf(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	/* vsnprintf touches neither errno nor locks for these formats. */
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	write_all(buf, (size_t)n);
}

void gmp_throw(const char *what)
{
	gmp_printf("gmpshim: fatal: %s\n", what);
	long pid = gmp_arch_syscall(SYS_getpid, 0, 0, 0);
	long tid = gmp_arch_syscall(SYS_gettid, 0, 0, 0);
	gmp_arch_syscall(SYS_tgkill, pid, tid, SIGABRT);
	gmp_arch_syscall(SYS_exit_group, 134, 0, 0);
	for (;;)
		;
}

void gmp_unsupported(const char *what)
{
	if (gmp_debug.verbose)
		gmp_printf("gmpshim: unsupported: %s\n", what);
}
