#include <sched.h>
#include <sys/syscall.h>

#include "export.h"
#include "shim/init.h"
#include "shim/proc.h"
#include "shim/sys.h"

GMP_EXPORT int sched_yield(void)
{
	gmp_ensure_init();
	/* A thread that is no G (a runtime thread in glibc's or jemalloc's
	 * lock spin, a foreign thread) yields its OS thread. */
	if (getg() == NULL)
		return (int)gmp_syscall(SYS_sched_yield, 0, 0, 0);
	gosched();
	return 0;
}
