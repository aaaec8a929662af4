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
int gmp_setaffinity(struct g *gp, size_t size, const cpu_set_t *set);
int gmp_getaffinity(struct g *gp, size_t size, cpu_set_t *set);

#endif
