/* Calls that name a thread by its TID (shim/thread.h, "Thread IDs"):
 * gettid() answers the G's own, and the calls the runtime leaves to the
 * kernel get its M's in its place.  The signal calls that take a TID are in
 * signal.c, the sched_* calls in pthread_sched.c and pthread_affinity.c. */
/* Define prlimit and prlimit64 ourselves, both 64-bit on LP64. */
#undef _FILE_OFFSET_BITS
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/thread.h"

GMP_EXPORT pid_t gettid(void)
{
	return gmp_gettid();
}

/* Linux's PRIO_PROCESS names a thread (its nice value is per thread). */
static id_t prio_who(int which, id_t who)
{
	return which == PRIO_PROCESS && who > 0 ? (id_t)gmp_kernel_tid((pid_t)who) : who;
}

GMP_EXPORT int setpriority(__priority_which_t which, id_t who, int prio)
{
	return GMP_REAL(setpriority)(which, prio_who(which, who), prio);
}

GMP_EXPORT int getpriority(__priority_which_t which, id_t who)
{
	return GMP_REAL(getpriority)(which, prio_who(which, who));
}

/* Any TID of the process names the process to kill and prlimit. */
GMP_EXPORT int kill(pid_t pid, int sig)
{
	return GMP_REAL(kill)(pid > 0 ? gmp_kernel_tid(pid) : pid, sig);
}

GMP_EXPORT int prlimit(pid_t pid, enum __rlimit_resource res, const struct rlimit *nw, struct rlimit *old)
{
	return GMP_REAL(prlimit)(gmp_kernel_tid(pid), res, nw, old);
}

GMP_EXPORT int prlimit64(pid_t pid, enum __rlimit_resource res, const struct rlimit64 *nw, struct rlimit64 *old)
{
	return GMP_REAL(prlimit64)(gmp_kernel_tid(pid), res, nw, old);
}

/* A timer whose signal goes to a thread goes to the M running it (docs/compat.md). */
GMP_EXPORT int timer_create(clockid_t clock, struct sigevent *sev, timer_t *timer)
{
	struct sigevent k;
	return GMP_REAL(timer_create)(clock, gmp_kernel_sigevent(sev, &k), timer);
}
