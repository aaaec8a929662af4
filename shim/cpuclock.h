/* CPU-time clocks per G (cpuclock.c). */
#ifndef GMP_CPUCLOCK_H
#define GMP_CPUCLOCK_H

#include <stdbool.h>
#include <time.h>

#include "runtime.h"

extern int gmp_cpuclock_on;
void gmp_cpuclock_in(struct m *mp);
void gmp_cpuclock_out(struct m *mp, struct g *gp);
void gmp_cpuclock_exit(struct g *gp);
int gmp_cpuclock_id(struct g *gp, clockid_t *clk);
bool gmp_cpuclock_ours(clockid_t clk);
int gmp_cpuclock_read(clockid_t clk, struct timespec *ts);

#endif
