/* Thread lifecycle (thread.c): create, exit, join, detach; and what names
 * a thread: its TID and its name. */
#ifndef GMP_THREAD_H
#define GMP_THREAD_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "runtime.h"

struct gmp_threadattr {
	size_t stacksize;  /* with stackaddr: the size of the user's stack */
	size_t guardsize;
	void *stackaddr;   /* lowest address of a user stack, or NULL */
	bool detached;
	uintptr_t createpc;  /* return address of the pthread_create call */
	int inheritsched, sched_policy, sched_priority;
	bool c11;          /* thrd_create: the start routine returns int */
	bool has_affinity; /* pthread_attr_setaffinity_np; else the creator's */
	cpu_set_t affinity;
	bool has_sigmask;  /* pthread_attr_setsigmask_np; else the creator's */
	uint64_t sigmask;
};
int gmp_newthread(struct g **out, const struct gmp_threadattr *ta, void *(*start)(void *), void *arg);

/* The TIDs Gs see in their TCB: GMP_TID_BASE and up, never reused. */
int gmp_newtid(void);

/* Thread IDs.  gettid() answers a G's own TID (glibc's TCB field, the one
 * its locks and PI futexes name the thread by; the initial thread's is
 * the process ID), never the M's, which changes as the G moves and is
 * shared by every G the M runs: natively no two live threads share a TID,
 * and gettid() == getpid() only in the initial thread.
 *
 * The caller's TID (its M's outside any G). */
int gmp_gettid(void);
/* The live G a call naming a thread by TID acts on: 0 the caller, the
 * process ID the initial thread (Linux takes it as that thread's TID), a G's
 * TID that G; NULL for anything else (another process, a thread that is no
 * G), which the kernel answers (ESRCH for the TID of a G that has exited:
 * no real TID is that large). */
struct g *gmp_tid_g(pid_t tid);
/* tid for a system call the runtime passes to the kernel (setpriority,
 * timer_create's SIGEV_THREAD_ID, perf_event_open): a G's TID becomes its
 * M's, the OS thread that runs it now (the caller's own M when the G is
 * not running), as gettid() answered before Gs had TIDs of their own. */
pid_t gmp_kernel_tid(pid_t tid);
/* The same for timer_create's sigevent: sev itself unless it is a
 * SIGEV_THREAD_ID one, else a copy in buf naming the M's TID. */
struct sigevent *gmp_kernel_sigevent(struct sigevent *sev, struct sigevent *buf);
/* The same for a /proc path that names a G's TID (/proc/self/task/TID/...,
 * /proc/PID/task/TID/..., /proc/TID/...): path itself if it names none,
 * else the path with its M's TID, in buf. */
const char *gmp_kernel_tid_path(const char *path, char *buf, size_t size);
/* Thread names (pthread_setname_np, prctl's PR_SET_NAME): per G, as
 * the kernel's comm is per task.  set: name cut to 15 bytes, as the
 * kernel cuts a comm; the initial thread's also names the process (ps,
 * pgrep), on the kernel's leader task.  get: buf holds 16. */
void gmp_setname(struct g *gp, const char *name);
int gmp_getname(struct g *gp, char *buf);

/* On g0, the exited G gp is off its M: free it or keep it for a joiner. */
void gmp_exit_reap(struct m *mp, struct g *gp);
/* deadline: -1 none, else as in timer.h.  Return errno values. */
int gmp_join(const void *thread, void **retval, int64_t deadline);
int gmp_detach(const void *thread);

#endif
