/* What kind of memory a futex word lives in (mapkind.c): a word in a
 * MAP_SHARED mapping may be waited on and woken by other processes through
 * the kernel, so only the kernel can queue its waiters; a word anywhere
 * else is this process's alone, whatever flag the futex call carries, and
 * its waiters can park in user space. */
#ifndef GMP_MAPKIND_H
#define GMP_MAPKIND_H

#include "runtime.h"

enum mapkind {
	MAPKIND_NONE,    /* not mapped (the kernel's EFAULT) */
	MAPKIND_PRIVATE, /* anonymous or MAP_PRIVATE: this process only */
	MAPKIND_SHARED,  /* MAP_SHARED (System V segments, shm_open, memfd, ...) */
};

enum mapkind gmp_mapkind(const void *addr);
void mapkind_fork(enum gmp_fork_phase phase);

#endif
