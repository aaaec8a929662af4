/* What the kernel says an M's thread is doing (rescue.c). */
#ifndef GMP_TASKSTATE_H
#define GMP_TASKSTATE_H

#include <stdint.h>

#include <stdbool.h>

/* From /proc/self/task/<tid>/syscall: 1 blocked in system call *nr (its
 * six arguments in args, unless NULL), 2 stopped outside a system call,
 * with its user-mode *sp and *pc for both; 0 running; -errno if
 * unreadable.  Where the file describes an emulator's calls rather than
 * the program's (qemu-user), only the thread's stat is read: 0 running,
 * else -ENOTSUP, so no blocked thread is ever taken for one blocked in the
 * program's own code.  Async-signal-safe: a handler on a thread in the
 * middle of a look makes its own directly (procfs.c). */
int gmp_task_syscall(int tid, long *nr, long *args, uintptr_t *sp, uintptr_t *pc);
/* Whether the kernel restarts system call nr with these arguments after
 * an SA_RESTART handler, so that a signal landing in it goes unseen:
 * futex waits without a timeout, socket calls without SO_RCVTIMEO or
 * SO_SNDTIMEO, pipe reads and writes, wait4, flock, F_SETLKW... */
bool gmp_task_restartable(long nr, const long *args);

#endif
