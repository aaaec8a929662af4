/* Seeing inside the runtime: the schedule trace (schedtrace.c), dumps of
 * every G (gdump.c), counters (stats.c) and the hooks that let valgrind
 * and the sanitizers follow G switches (sanitizer.c).  Started once the
 * scheduler runs, and again in a fork child. */
#include "dumpsig.h"
#include "fork.h"
#include "gdump.h"
#include "insight.h"
#include "sanitizer.h"
#include "schedtrace.h"
#include "stats.h"

void gmp_insight_init(void)
{
	gmp_sanitizer_init();
	gmp_stats_init();
	gmp_dump_init();
	gmp_dumpsig_init();
	gmp_schedtrace_start();
}

void gmp_insight_fork(enum gmp_fork_phase phase)
{
	gmp_dump_fork(phase);
	gmp_schedtrace_fork(phase);
}
