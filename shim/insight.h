/* Seeing inside (schedtrace.c, gdump.c, stats.c, sanitizer.c). */
#ifndef GMP_INSIGHT_H
#define GMP_INSIGHT_H

#include <stdint.h>

#include "fork.h"
#include "runtime.h"

/* Every M (sched.allm, newest first; a fork child keeps only its own). */
#define gmp_allm (sched.allm)
void gmp_insight_m_new(struct m *mp);
void gmp_insight_init(void);
int gmp_glist_len(struct g *list);
void gmp_insight_fork(enum gmp_fork_phase phase);
const char *gmp_waitreason_string(uint32_t reason);
const char *gmp_gstatus_string(uint32_t status);

#endif
