/* Reading /proc without taking a descriptor number from the program
 * (procfs.c). */
#ifndef GMP_PROCFS_H
#define GMP_PROCFS_H

#include <stddef.h>

#include "fork.h"

/* Runs fn(arg) where the descriptors it opens come from a table of their
 * own: on the runtime's /proc reader, a thread that unshared its fd table,
 * or on the calling thread where there can be none (the kernel or a
 * sandbox refuses unshare) or when the caller is the one already inside.
 * Returns fn's result, or -EAGAIN without running it while the reader is
 * being made (the first call asks for it).  Any thread but the reader; fn
 * makes system calls only. */
long gmp_procfs_run(long (*fn)(void *arg), void *arg);
/* Reads /proc/self/task/<tid>/<file> (tid 0: the reading thread's own,
 * /proc/thread-self) into buf, NUL-terminated, through gmp_procfs_run: its
 * length, or -errno. */
long gmp_procfs_read_task(int tid, const char *file, char *buf, size_t size);
/* Whether the reader is up or being made: one more OS thread of the
 * runtime's. */
int gmp_procfs_threads(void);
void procfs_fork(enum gmp_fork_phase phase);

#endif
