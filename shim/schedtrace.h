#ifndef GMP_SCHEDTRACE_H
#define GMP_SCHEDTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "outbuf.h"
#include "runtime.h"

/* OS threads the runtime runs on: its Ms (never freed, so also the most
 * it ever had), sysmon and the template thread. */
int gmp_os_threads(void);
void gmp_schedtrace_line(struct outbuf *ob, int64_t now);
void gmp_scheddetail(struct outbuf *ob, bool lock_registry, bool with_gs);
void gmp_schedtrace_start(void);
void gmp_schedtrace_fork(enum gmp_fork_phase phase);

/* gdump.c */
void gmp_dump_init(void);
void gmp_dump_fork(enum gmp_fork_phase phase);
/* stats.c */
void gmp_stats_init(void);
/* sanitizer.c */
void gmp_sanitizer_init(void);

#endif
