/* What the kernel says an M's thread is doing (rescue.c). */
#ifndef GMP_TASKSTATE_H
#define GMP_TASKSTATE_H

#include <stdint.h>

/* From /proc/self/task/<tid>/syscall: 1 blocked in system call *nr,
 * 2 stopped outside a system call, with its user-mode *sp and *pc for
 * both; 0 running; -errno if unreadable.  Async-signal-safe. */
int gmp_task_syscall(int tid, long *nr, uintptr_t *sp, uintptr_t *pc);

#endif
