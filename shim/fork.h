/* Fork (fork.c): each module with locks or per-thread state takes part in
 * fork: before, it takes its locks; in the parent, it releases them; in the
 * child, it resets itself to a world with only the forking thread.  Each
 * module declares its own NAME_fork(phase) in its header. */
#ifndef GMP_FORK_H
#define GMP_FORK_H



enum gmp_fork_phase { FORK_PREPARE, FORK_PARENT, FORK_CHILD };

/* Registers the runtime's pthread_atfork handlers; once, at start. */
void gmp_fork_init(void);
/* Those handlers, for a fork glibc never sees (syscall(SYS_clone) without
 * CLONE_VM, as Qt's forkfd makes its children): before the call, and
 * after it in the parent or in the child. */
void gmp_fork_prepare(void);
void gmp_fork_parent(void);
void gmp_fork_child(void);

#endif
