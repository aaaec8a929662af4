/* Fork (fork.c): each module with locks or per-thread state takes part in
 * fork: before, it takes its locks; in the parent, it releases them; in the
 * child, it resets itself to a world with only the forking thread.  Each
 * module declares its own NAME_fork(phase) in its header. */
#ifndef GMP_FORK_H
#define GMP_FORK_H

#include <stdbool.h>

enum gmp_fork_phase { FORK_PREPARE, FORK_PARENT, FORK_CHILD };

/* Registers the runtime's pthread_atfork handlers; once, at start. */
void gmp_fork_init(void);
/* Those handlers, for a fork glibc never sees (syscall(SYS_clone) without
 * CLONE_VM, as Qt's forkfd makes its children): before the call, and
 * after it in the parent or in the child. */
void gmp_fork_prepare(void);
void gmp_fork_parent(void);
void gmp_fork_child(void);

/* In a fork child the runtime's own threads (the template thread, sysmon)
 * start only once the child parks its thread, makes another, waits in the
 * kernel or takes a process-shared robust mutex (gmp_fork_helpers, called
 * there): before that the child has one thread, running, which needs
 * neither, and most children exec or exit first. */
extern bool gmp_fork_helpers_pending;
void gmp_fork_helpers_start(void);
static inline void gmp_fork_helpers(void)
{
	if (__builtin_expect(__atomic_load_n(&gmp_fork_helpers_pending, __ATOMIC_RELAXED), 0))
		gmp_fork_helpers_start();
}

#endif
