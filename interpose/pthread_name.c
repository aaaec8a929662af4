#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "shim/init.h"
#include "shim/registry.h"
#include "shim/runtime.h"

GMP_EXPORT int pthread_setname_np(pthread_t t, const char *name)
{
	gmp_ensure_init();
	if (strlen(name) >= sizeof ((struct g *)0)->name)
		return ERANGE;
	struct g *gp = gmp_registry_get((void *)t);
	if (gp == NULL)
		return ESRCH;
	if (__atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_DEAD)
		return ENOENT; /* NPTL's: the exited thread's /proc entry is gone */
	strncpy(gp->name, name, sizeof gp->name - 1);
	return 0;
}

GMP_EXPORT int pthread_getname_np(pthread_t t, char *buf, size_t len)
{
	gmp_ensure_init();
	if (len < 16)
		return ERANGE;
	struct g *gp = gmp_registry_get((void *)t);
	if (gp == NULL)
		return ESRCH;
	if (__atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_DEAD)
		return ENOENT; /* NPTL's: the exited thread's /proc entry is gone */
	if (gp->name[0]) {
		strcpy(buf, gp->name);
		return 0;
	}
	/* Never named: a new NPTL thread's name is the comm it inherited,
	 * which is the program's. */
	int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	ssize_t n = read(fd, buf, len - 1);
	int err = n < 0 ? errno : 0;
	close(fd);
	if (err)
		return err;
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}
