/* Thread lifecycle on top of the scheduler: creating a G (Go's newproc1),
 * its exit (goexit0) and joining or detaching it; a thread's TID and name,
 * which the kernel keeps per task and a G keeps itself. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "arch.h"
#include "cancel.h"
#include "compat/tls.h"
#include "compat/unwind_exit.h"
#include "exit.h"
#include "fork.h"
#include "gfree.h"
#include "gsignal.h"
#include "gsigq.h"
#include "preempt.h"
#include "proc.h"
#include "registry.h"
#include "rtsig.h"
#include "runtime.h"
#include "sanitizer.h"
#include "rtprio.h"
#include "schedattr.h"
#include "sema.h"
#include "stack.h"
#include "sys.h"
#include "syscall.h"
#include "thread.h"

/* The bottom of every G's stack, as NPTL's start_thread: the record that
 * ends the thread's cleanup chain (glibc's cleanup_jmp_buf), where a forced
 * unwind for pthread_exit or cancellation lands (compat/unwind_exit.c). */
static void grun(void)
{
	__pthread_unwind_buf_t entry;
	/* The record is smaller than a jmp_buf: the signal mask part, which
	 * a savemask of 0 leaves alone, is missing (as in glibc's macros). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
	if (__sigsetjmp((struct __jmp_buf_tag *)(void *)entry.__cancel_jmp_buf, 0) != 0) {
#pragma GCC diagnostic pop
		gmp_thread_exit(gmp_unwind_retval());
	}
	struct g *gp = getg();
	memset(entry.__pad, 0, sizeof entry.__pad);
	gmp_unwind_entry(&entry);
	*gmp_tls_cleanup_jmp_buf(gp->tcb) = &entry;
	if (__builtin_expect(gp->sigpending != 0, 0))
		gmp_sig_deliver_pending(); /* sent before it first ran */
	gmp_tls_thread_start();
	if (gp->flags & G_C11) {
		int (*start)(void *) = (int (*)(void *))(void (*)(void))gp->start_routine;
		gmp_thread_exit((void *)(intptr_t)start(gp->arg));
	}
	gmp_thread_exit(gp->start_routine(gp->arg));
}

static void gmain(void *arg)
{
	(void)arg;
	gmp_san_after_switch(NULL);
	grun();
}

/* Zeroes the words of [p, p+n) that are not zero, so that the pages of a
 * G's cold fields a thread never wrote stay untouched (a read of such a
 * page maps the zero page); n a multiple of the word. */
static void clear_written(void *p, size_t n)
{
	uintptr_t *w = p;
	for (size_t i = 0; i < n / sizeof *w; i++)
		if (w[i])
			w[i] = 0;
}

/* Clears what a previous thread left in a reused G. */
static void greset(struct g *gp)
{
	gp->m = NULL;
	gp->schedlink = gp->regnext = NULL;
	gp->retval = NULL;
	gp->waitaddr = NULL;
	gp->waitlink = gp->waitprev = gp->waittail = gp->waitnext = NULL;
	gp->waitpprev = NULL;
	gp->waitreason = WAIT_NONE;
	gp->timer.index = -1;
	gp->timer.gp = gp;
	clear_written(gp->name, sizeof gp->name);
	if (gp->specific_written) {
		memset(gp->specific_1st, 0, sizeof gp->specific_1st);
		gp->specific_written = false;
	}
	gp->specific_used = false;
	gp->robustheld = 0;
	gp->preemptoff = 0; /* a constructor that called pthread_exit */
	gp->preemptoffsince = 0;
	gp->rawrobust = NULL;
	gp->rawrobustlen = 0;
	gp->cleartidset = false;
	gp->cancelpoint = 0;
	gp->cancelkick = 0;
	gp->shimhandlers = 0;
	gp->inhandler = 0;
	gp->sighmask = 0;
	gp->sigraised = 0;
	gp->sigretry = 0;
	gp->cputime = gp->cpuwall = gp->cpuseen = 0;
	gp->cpum = NULL;
}

int gmp_newthread(struct g **out, const struct gmp_threadattr *ta, void *(*start)(void *), void *arg)
{
	size_t stacksize = ta->stacksize, guardsize = ta->guardsize, usize = ta->stacksize;
	void *ustack = ta->stackaddr;
	gmp_fork_helpers();
	struct p *pp = gmp_getp();
	struct g *gp = gfget(pp, ustack ? 0 : stacksize, guardsize);
	bool reuse = gp != NULL;
	if (!reuse) {
		gp = malg(stacksize, guardsize, ustack, usize);
		if (gp == NULL)
			return EAGAIN;
	} else {
		gmp_sig_unpinned(gp);
		if (ustack) {
			gp->stack_lo = ustack;
			gp->stack_size = usize;
		}
	}
	greset(gp);
	gp->tid = gmp_newtid();
	clear_written(&gp->res, sizeof gp->res);
	if (gmp_tls_setup(gp->tcb, gp->tid, gp, &gp->res, reuse) != 0) {
		gmp_unmap_g(gp);
		return EAGAIN;
	}
	gp->status = G_IDLE;
	gp->goid = __atomic_add_fetch(&sched.goidgen, 1, __ATOMIC_RELAXED);
	gp->flags = (gp->flags & ~G_C11) | (ta->c11 ? G_C11 : 0);
	gp->start_routine = start;
	gp->arg = arg;
	gp->pollheld = 0; /* a reused G's is its last thread's */
	gp->slicegrow = 0;
	gp->joinstate = ta->detached ? JS_DETACHED : JS_JOINABLE;
	gmp_schedattr_inherit(gp, getg(), ta);
	gmp_rt_newg(gp);
	/* A new thread starts with its creator's mask and nothing pending. */
	gp->sigmask = ta->has_sigmask ? ta->sigmask : getg()->sigmask;
	gp->sigpending = 0;
	gp->fwdmask = 0;
	gp->sigfromproc = 0;
	gmp_sigq_reset(gp);
	gp->sigrestart = true;
	gmp_sigmask_count(gp->sigmask, 1);
	gp->altstack = (struct gmp_altstack){ 0 };
	gp->createpc = ta->createpc;
	gp->parentgoid = getg()->goid;
	/* As a task's comm.  Only a name to copy: gp's is zero (fresh, or
	 * cleared by greset), and a write would bring in its cold page. */
	if (getg()->name[0])
		memcpy(gp->name, getg()->name, sizeof gp->name);
	gp->sched_sp = gmp_arch_new_context(gmp_stack_top(gp), gmain, gp);
	gmp_arch_inherit_fpenv(gp->sched_sp);
	gmp_san_g_new(gp);
	__atomic_add_fetch(&sched.ngs, 1, __ATOMIC_ACQ_REL);
	if (__builtin_expect(__atomic_load_n(&gmp_rt_kset, __ATOMIC_RELAXED), 0))
		gmp_rt_kernel_threads(); /* no longer one thread: the Ms' policy goes back */
	gmp_registry_add(gp);
	*out = gp;
	newproc(gp);
	gmp_preempt_point();
	return 0;
}

/* Frees a G whose thread is over and will not be joined (g0 or G; pp
 * NULL: a foreign thread, which has no P, so the global free list). */
static void reap(struct p *pp, struct g *gp)
{
	gmp_registry_del(gp);
	if (!(gp->flags & G_MAIN))
		gfput(pp, gp);
}

/* The caller's P, none for a foreign thread (foreign.c). */
static struct p *reaper_p(void)
{
	return getg() ? gmp_getp() : NULL;
}

/* goexit0's second half, on g0 right after gp switched out for good. */
void gmp_exit_reap(struct m *mp, struct g *gp)
{
	for (;;) {
		uint32_t js = __atomic_load_n(&gp->joinstate, __ATOMIC_ACQUIRE);
		if (js == JS_DETACHED) {
			gp->joinstate = JS_REAPED;
			reap(mp->p, gp);
			return;
		}
		if (__atomic_compare_exchange_n(&gp->joinstate, &js, JS_EXITED, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			if (js == JS_JOINING) {
				struct g *w = gmp_semq_dequeue(&gp->joinstate);
				if (w)
					gmp_ready_on(mp, w);
			}
			return;
		}
	}
}

/* pthread_join/tryjoin/timedjoin.  deadline: -1 wait, -2 try only. */
int gmp_join(const void *thread, void **retval, int64_t deadline)
{
	gmp_preempt_point();
	struct g *self = getg();
	struct g *gp = gmp_registry_get(thread);
	if (gp == NULL)
		return ESRCH;
	if (gp == self)
		return EDEADLK;
	for (;;) {
		uint32_t js = __atomic_load_n(&gp->joinstate, __ATOMIC_ACQUIRE);
		if (js == JS_DETACHED || js == JS_REAPED)
			return EINVAL;
		if (js == JS_EXITED)
			break;
		if (js == JS_JOINING && deadline != -2)
			return EINVAL; /* somebody else is joining it */
		if (deadline == -2)
			return EBUSY;
		if (js == JS_JOINABLE &&
		    !__atomic_compare_exchange_n(&gp->joinstate, &js, JS_JOINING, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		/* We are the joiner now: wait for the exit. */
		while (__atomic_load_n(&gp->joinstate, __ATOMIC_ACQUIRE) == JS_JOINING) {
			int w = gmp_futexwait(&gp->joinstate, JS_JOINING, deadline, WAIT_JOIN);
			/* Cancelled while joining: the target stays joinable
			 * (POSIX), as after a timeout. */
			bool cancel = w == EINTR && gmp_cancel_requested(self);
			if (w == ETIMEDOUT || cancel) {
				uint32_t expect = JS_JOINING;
				if (__atomic_compare_exchange_n(&gp->joinstate, &expect, JS_JOINABLE, 0,
								__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
					return cancel ? EINTR : ETIMEDOUT;
			}
		}
		break;
	}
	uint32_t expect = JS_EXITED;
	if (!__atomic_compare_exchange_n(&gp->joinstate, &expect, JS_REAPED, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return EINVAL;
	if (retval)
		*retval = gp->retval;
	reap(reaper_p(), gp);
	/* The join happened: a cancellation that ended the wait too late acts
	 * at the next cancellation point instead, as the target is gone. */
	if (self)
		__atomic_store_n(&self->cancelkick, 0, __ATOMIC_SEQ_CST);
	return 0;
}

int gmp_detach(const void *thread)
{
	struct g *gp = gmp_registry_get(thread);
	if (gp == NULL)
		return ESRCH;
	for (;;) {
		uint32_t js = __atomic_load_n(&gp->joinstate, __ATOMIC_ACQUIRE);
		switch (js) {
		case JS_DETACHED:
		case JS_REAPED:
			return EINVAL;
		case JS_JOINING:
			return 0; /* the joiner will reap it */
		case JS_JOINABLE:
			if (__atomic_compare_exchange_n(&gp->joinstate, &js, JS_DETACHED, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
				return 0;
			break;
		case JS_EXITED:
			if (__atomic_compare_exchange_n(&gp->joinstate, &js, JS_REAPED, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				reap(reaper_p(), gp);
				return 0;
			}
			break;
		}
	}
}

/* TIDs the TCB of a G carries.  glibc's recursive locks (the loader's
 * among them) compare owner TIDs, so every thread needs its own; values
 * above PID_MAX_LIMIT (2^22) can never be a real thread's. */
int gmp_newtid(void)
{
	static uint32_t next = GMP_TID_BASE;
	uint32_t t = __atomic_add_fetch(&next, 1, __ATOMIC_RELAXED);
	return (int)(GMP_TID_BASE + (t - GMP_TID_BASE) % 0x3fb00000);
}

void gmp_setname(struct g *gp, const char *name)
{
	strncpy(gp->name, name, sizeof gp->name - 1);
	if (gp->tid != gmp_pid)
		return;
	char path[48];
	snprintf(path, sizeof path, "/proc/self/task/%d/comm", gmp_pid);
	long fd = gmp_syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	gmp_syscall(SYS_write, fd, gp->name, strlen(gp->name));
	gmp_syscall(SYS_close, fd, 0, 0);
}

int gmp_getname(struct g *gp, char *buf)
{
	if (gp->name[0]) {
		strcpy(buf, gp->name);
		return 0;
	}
	/* Never named, nor its creator: a new task's comm is the program's. */
	long fd = gmp_syscall(SYS_openat, AT_FDCWD, "/proc/self/comm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return (int)-fd;
	long n = gmp_syscall(SYS_read, fd, buf, 15);
	gmp_syscall(SYS_close, fd, 0, 0);
	if (n < 0)
		return (int)-n;
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return 0;
}

int gmp_gettid(void)
{
	struct g *gp = getg();
	return gp ? gp->tid : (int)gmp_syscall(SYS_gettid, 0, 0, 0);
}

struct g *gmp_tid_g(pid_t tid)
{
	if (!gmp_initialized)
		return NULL;
	if (tid == 0)
		return getg() && !(getg()->flags & G_FOREIGN) ? getg() : NULL;
	if (tid >= GMP_TID_BASE)
		return gmp_registry_tid(tid);
	if (tid != gmp_pid)
		return NULL;
	/* In a fork child the initial thread is the G that forked. */
	struct g *gp = gmp_registry_tid(tid);
	return gp ? gp : &gmp_main_g;
}

pid_t gmp_kernel_tid(pid_t tid)
{
	if (!gmp_initialized || tid < GMP_TID_BASE)
		return tid;
	struct g *gp = gmp_registry_tid(tid);
	struct m *mp = gp ? __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE) : NULL;
	if (mp == NULL && gp != NULL && getg() != NULL)
		mp = getg()->m;
	return mp ? mp->tid : tid;
}

struct sigevent *gmp_kernel_sigevent(struct sigevent *sev, struct sigevent *buf)
{
	if (sev == NULL || sev->sigev_notify != SIGEV_THREAD_ID)
		return sev;
	*buf = *sev;
	buf->_sigev_un._tid = gmp_kernel_tid(sev->_sigev_un._tid);
	return buf;
}

/* path from p on, if it starts with a decimal number followed by '/' or
 * the end: the number in *n and the rest after it. */
static const char *number(const char *p, long *n)
{
	char *end;
	if (*p < '0' || *p > '9')
		return NULL;
	*n = strtol(p, &end, 10);
	return *end == '/' || *end == 0 ? end : NULL;
}

const char *gmp_kernel_tid_path(const char *path, char *buf, size_t size)
{
	if (path == NULL || strncmp(path, "/proc/", 6) != 0 || !gmp_initialized)
		return path;
	const char *p = path + 6, *rest;
	long n;
	if (strncmp(p, "self/", 5) == 0)
		p += 5;
	else if ((rest = number(p, &n)) != NULL && n < GMP_TID_BASE && *rest == '/')
		p = rest + 1;
	/* p: at the TID after /proc/ (a G's stands where a PID may), or
	 * after the process's part */
	if (strncmp(p, "task/", 5) == 0)
		p += 5;
	if ((rest = number(p, &n)) == NULL || n < GMP_TID_BASE || n > INT32_MAX)
		return path;
	pid_t k = gmp_kernel_tid((pid_t)n);
	if (k == (pid_t)n || (size_t)snprintf(buf, size, "%.*s%d%s", (int)(p - path), path, (int)k, rest) >= size)
		return path;
	return buf;
}
