#ifndef GMP_SCHEDTRACE_H
#define GMP_SCHEDTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "outbuf.h"
#include "fork.h"
#include "runtime.h"

/* OS threads the runtime runs on: its Ms (never freed, so also the most
 * it ever had), sysmon and the template thread. */
int gmp_os_threads(void);
void gmp_schedtrace_line(struct outbuf *ob, int64_t now);
void gmp_scheddetail(struct outbuf *ob, bool lock_registry, bool with_gs);

/* Past this many Gs, scheddetail and a dump print one summary of the rest
 * instead of a line or a backtrace each: with a million threads either
 * would run to a million lines (gigabytes with backtraces). */
#define GMP_DETAIL_MAX 1000

/* The Gs left out: how many in each state (waiting ones by wait reason)
 * and the commonest places they were created. */
#define GMP_GSUMMARY_SITES 16
struct gmp_gsummary {
	long n;
	long bystatus[8];
	long byreason[GMP_NWAITREASON];
	struct {
		uintptr_t pc;
		long n;
	} sites[GMP_GSUMMARY_SITES];
	long othersites;      /* created at none of those */
};
void gmp_gsummary_add(struct gmp_gsummary *s, struct g *gp);
/* symbolize: creation sites as function+offset (a dump), else as
 * addresses. */
void gmp_gsummary_print(struct outbuf *ob, const struct gmp_gsummary *s, bool symbolize);
void gmp_schedtrace_start(void);
void gmp_schedtrace_fork(enum gmp_fork_phase phase);

#endif
