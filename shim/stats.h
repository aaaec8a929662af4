/* Counters (stats.c): gmprun --stats's report at exit, and the public
 * gmpshim_read_stats (gmpshim.h). */
#ifndef GMP_STATS_H
#define GMP_STATS_H

/* Arranges the exit report when GMP_STATS is set; once, at start. */
void gmp_stats_init(void);

#endif
