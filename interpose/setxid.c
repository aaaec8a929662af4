/* setuid and its family, callable from any thread (shim/setxid.c): each
 * runs glibc's own function, whose broadcast applies the change to every
 * kernel thread of the process, and returns its result and errno. */
#include <grp.h>
#include <stdlib.h>
#include <unistd.h>

#include "export.h"
#include "shim/runtime.h"
#include "shim/setxid.h"

struct xid_args {
	long (*fn)(long, long, long);
	long a, b, c;
};

/* Called with the M's own TCB in FS: errno is that TCB's until it is
 * handed back through *err. */
static int call_real(void *argv, int *err)
{
	struct xid_args *x = argv;
	int r = (int)x->fn(x->a, x->b, x->c);
	*err = errno;
	return r;
}

static int run(void *fn, long a, long b, long c)
{
	struct xid_args x = { (long (*)(long, long, long))fn, a, b, c };
	if (!gmp_initialized)
		return call_real(&x, &(int){ 0 });
	int err = 0;
	int r = gmp_setxid(call_real, &x, &err);
	if (r < 0)
		errno = err;
	return r;
}

GMP_EXPORT int setuid(uid_t u)
{
	return run(GMP_REAL(setuid), u, 0, 0);
}

GMP_EXPORT int seteuid(uid_t u)
{
	return run(GMP_REAL(seteuid), u, 0, 0);
}

GMP_EXPORT int setreuid(uid_t r, uid_t e)
{
	return run(GMP_REAL(setreuid), r, e, 0);
}

GMP_EXPORT int setresuid(uid_t r, uid_t e, uid_t s)
{
	return run(GMP_REAL(setresuid), r, e, s);
}

GMP_EXPORT int setgid(gid_t g)
{
	return run(GMP_REAL(setgid), g, 0, 0);
}

GMP_EXPORT int setegid(gid_t g)
{
	return run(GMP_REAL(setegid), g, 0, 0);
}

GMP_EXPORT int setregid(gid_t r, gid_t e)
{
	return run(GMP_REAL(setregid), r, e, 0);
}

GMP_EXPORT int setresgid(gid_t r, gid_t e, gid_t s)
{
	return run(GMP_REAL(setresgid), r, e, s);
}

GMP_EXPORT int setgroups(size_t n, const gid_t *list)
{
	return run(GMP_REAL(setgroups), (long)n, (long)list, 0);
}

/* glibc's initgroups calls its own setgroups, out of our sight: the
 * same as its getgrouplist (the NSS look-up, as the G) and our setgroups,
 * at most NGROUPS_MAX groups as glibc keeps. */
GMP_EXPORT int initgroups(const char *user, gid_t group)
{
	if (!gmp_initialized)
		return GMP_REAL(initgroups)(user, group);
	int n = 64;
	gid_t *list = NULL;
	for (;;) {
		gid_t *more = realloc(list, (size_t)n * sizeof *list);
		if (more == NULL) {
			free(list);
			errno = ENOMEM;
			return -1;
		}
		list = more;
		int have = n;
		if (getgrouplist(user, group, list, &have) >= 0) {
			n = have;
			break;
		}
		n = have > n ? have : 2 * n;
	}
	long max = sysconf(_SC_NGROUPS_MAX);
	if (max > 0 && n > max)
		n = (int)max;
	int r = setgroups((size_t)n, list);
	int saved = errno;
	free(list);
	errno = saved;
	return r;
}
