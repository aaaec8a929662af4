/* Scheduling policy, priority and affinity per G (schedattr.c): kept and
 * reported, not acted upon, since Gs share their Ms. */
#ifndef GMP_SCHEDATTR_H
#define GMP_SCHEDATTR_H

#include <sched.h>
#include <sys/types.h>

#include "thread.h"

void gmp_schedattr_init_main(struct g *gp);
void gmp_schedattr_inherit(struct g *gp, const struct g *parent, const struct gmp_threadattr *ta);
int gmp_checksched(int policy, int prio);
int gmp_setsched(struct g *gp, int policy, int prio);
/* sched_setattr and sched_getattr (through syscall()) for a G: its policy
 * and priority as sched_setscheduler sets them; nice and the utilisation
 * clamps are its M's, which the kernel keeps (as setpriority's).
 * SCHED_DEADLINE, which the runtime cannot schedule, is refused with
 * EBUSY, the kernel's answer when its admission test fails.  Return 0 or
 * -errno. */
long gmp_sched_setattr(struct g *gp, const void *attr, unsigned int flags);
long gmp_sched_getattr(struct g *gp, void *attr, unsigned int size, unsigned int flags);
int gmp_setaffinity(struct g *gp, size_t size, const cpu_set_t *set);
int gmp_getaffinity(struct g *gp, size_t size, cpu_set_t *set);

#endif
