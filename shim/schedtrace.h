#ifndef GMP_SCHEDTRACE_H
#define GMP_SCHEDTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "outbuf.h"
#include "fork.h"
#include "runtime.h"

void gmp_schedtrace_line(struct outbuf *ob, int64_t now);
void gmp_scheddetail(struct outbuf *ob, bool lock_registry, bool with_gs);
void gmp_schedtrace_start(void);
void gmp_schedtrace_fork(enum gmp_fork_phase phase);

#endif
