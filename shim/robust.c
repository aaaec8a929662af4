/* Robust mutexes that the kernel can recover when the process dies.
 *
 * The kernel's robust-futex protocol: at a task's death it walks the list
 * the task registered with set_robust_list and, for each mutex whose
 * futex word holds that task's TID, sets FUTEX_OWNER_DIED (keeping
 * FUTEX_WAITERS) and wakes one waiter.  glibc puts the TCB's TID in the
 * word and links the mutex into the TCB's list.  Neither fits a G: its TCB
 * TID is a value no kernel task has, and its TCB list is registered with
 * no task.
 *
 * So every robust mutex held by any G of this process carries one real
 * TID, that of the template thread (it lives as long as the process and
 * never holds a mutex itself), and sits on one process-wide list which
 * the template thread registers as its robust list.  When the process
 * dies (kill -9, exit, exec) the kernel walks that list and marks every
 * robust mutex any of our threads held, exactly as it would for NPTL
 * threads.  Inside the process the owning G is identified by its own TID
 * kept in the mutex's __spins/__elision word (unused by glibc for robust
 * kinds); __owner keeps glibc's meaning (the owner's TID, or the
 * INCONSISTENT/NOTRECOVERABLE markers), and the futex word keeps glibc's
 * format, so native processes sharing the mutex interoperate.  A G that
 * exits holding robust mutexes has them marked here, as the kernel would
 * for a dying thread.
 *
 * The list and the kernel's list_op_pending slot are changed under one
 * lock, held across each acquiring CAS and each release, so the pending
 * slot covers the one mutex in transition and a death at any point leaves
 * no robust mutex locked for good. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/syscall.h>

#include "arch.h"
#include "compat/debug.h"
#include "compat/tls.h"
#include "fork.h"
#include "lock.h"
#include "robust.h"
#include "runtime.h"
#include "sys.h"
#include "syscall.h"
#include "timer.h"

#define TID_MASK FUTEX_TID_MASK
#define INCONSISTENT INT_MAX
#define NOTRECOVERABLE (INT_MAX - 1)

/* A list link is the mutex's __list.__next word; the word before it
 * (__list.__prev) links back, as in glibc's layout. */
struct node {
	struct node *next;
};

static struct {
	struct mutex lock;
	struct node *headprev;  /* the head's back link, like a mutex's __prev */
	struct robust_list_head head;
} rl;

static int robust_tid; /* the template thread's TID once it registered */

#define D(m) ((m)->__data)
#define HEAD ((struct node *)&rl.head.list)

static inline struct node *node_of(pthread_mutex_t *m)
{
	return (struct node *)&D(m).__list.__next;
}

static inline struct node **prev_of(struct node *n)
{
	return n == HEAD ? &rl.headprev : (struct node **)((char *)n - sizeof(void *));
}

static inline pthread_mutex_t *mutex_of(struct node *n)
{
	return (pthread_mutex_t *)((char *)n - offsetof(pthread_mutex_t, __data.__list.__next));
}

/* The owning G's TID, in the 32 bits glibc uses only for adaptive spinning
 * and lock elision, neither of which applies to a robust mutex. */
static inline int *holder_of(pthread_mutex_t *m)
{
	return (int *)&D(m).__spins;
}
_Static_assert(offsetof(pthread_mutex_t, __data.__spins) == 20, "glibc mutex __spins offset");
_Static_assert(offsetof(pthread_mutex_t, __data.__list.__next) == 32, "glibc mutex __list offset");

static void list_init(void)
{
	rl.head.list.next = &rl.head.list;
	rl.headprev = HEAD;
	rl.head.futex_offset = (long)offsetof(pthread_mutex_t, __data.__lock) -
			       (long)offsetof(pthread_mutex_t, __data.__list.__next);
	rl.head.list_op_pending = NULL;
}

/* Inserts at the front; the forward links stay walkable by the kernel at
 * every step. */
static void enqueue(struct node *n)
{
	struct node *first = (struct node *)rl.head.list.next;
	n->next = first;
	*prev_of(n) = HEAD;
	*prev_of(first) = n;
	__atomic_store_n(&rl.head.list.next, (struct robust_list *)n, __ATOMIC_RELEASE);
}

static void dequeue(struct node *n)
{
	struct node *prev = *prev_of(n), *next = n->next;
	*prev_of(next) = prev;
	__atomic_store_n(&prev->next, next, __ATOMIC_RELEASE);
	n->next = NULL;
}

/* Runs on the template thread, which registers the list for the process. */
void gmp_robust_register(void)
{
	if (rl.head.list.next == NULL)
		list_init();
	gmp_syscall(SYS_set_robust_list, &rl.head, sizeof rl.head, 0);
	__atomic_store_n(&robust_tid, (int)gmp_syscall(SYS_gettid, 0, 0, 0), __ATOMIC_RELEASE);
}

static int owner_tid(void)
{
	int t;
	if (__builtin_expect(__atomic_load_n(&robust_tid, __ATOMIC_ACQUIRE) == 0, 0))
		gmp_fork_helpers(); /* a fork child that had no use for it yet */
	while ((t = __atomic_load_n(&robust_tid, __ATOMIC_ACQUIRE)) == 0)
		gmp_syscall(SYS_sched_yield, 0, 0, 0); /* the template thread is starting */
	return t;
}

bool gmp_robust_held(pthread_mutex_t *m)
{
	uint32_t w = __atomic_load_n((uint32_t *)&D(m).__lock, __ATOMIC_ACQUIRE);
	return (int)(w & TID_MASK) == owner_tid() && *holder_of(m) == getg()->tid;
}

static void futex_wake_shared(uint32_t *w)
{
	gmp_syscall6(SYS_futex, (long)w, FUTEX_WAKE, 1, 0, 0, 0);
}

/* The attempt to take the lock, under the list lock.  Returns 0, EOWNERDEAD
 * or ENOTRECOVERABLE if it got (or, for the last, got and released) the
 * mutex, EBUSY if someone holds it, EAGAIN if the word changed under us. */
static int try_acquire(pthread_mutex_t *m, uint32_t assume, int tid, int self)
{
	uint32_t *w = (uint32_t *)&D(m).__lock;
	struct node *n = node_of(m);
	lock(&rl.lock);
	rl.head.list_op_pending = (struct robust_list *)n;
	uint32_t old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
	int ret;
	if (old == 0) {
		if (!__atomic_compare_exchange_n(w, &old, (uint32_t)tid | assume, 0, __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED)) {
			ret = EAGAIN;
			goto out;
		}
		if (D(m).__owner == NOTRECOVERABLE) {
			/* Released by someone who never made it consistent:
			 * let the next waiter see that too. */
			D(m).__count = 0;
			if (__atomic_exchange_n(w, 0, __ATOMIC_RELEASE) & FUTEX_WAITERS || assume)
				futex_wake_shared(w);
			ret = ENOTRECOVERABLE;
			goto out;
		}
		D(m).__owner = self;
		ret = 0;
	} else if (old & FUTEX_OWNER_DIED) {
		uint32_t want = (uint32_t)tid | (old & FUTEX_WAITERS) | assume;
		if (!__atomic_compare_exchange_n(w, &old, want, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			ret = EAGAIN;
			goto out;
		}
		D(m).__owner = INCONSISTENT;
		ret = EOWNERDEAD;
	} else {
		ret = EBUSY;
		goto out;
	}
	D(m).__count = 1;
	*holder_of(m) = self;
	enqueue(n);
	getg()->robustheld++;
out:
	rl.head.list_op_pending = NULL;
	unlock(&rl.lock);
	return ret;
}

/* Waits in the kernel (shared futex: other processes wake it) until the
 * word changes; the M blocks, its P is handed off by entersyscall.
 *
 * A waiter woken by an unlock and killed before it takes the mutex would
 * swallow the only wake-up, leaving other processes' waiters asleep on a
 * free mutex.  The kernel covers that with the dying task's pending slot
 * (a pending mutex with no owner gets one more wake), so while we wait the
 * mutex is the pending entry of the list registered for this M's task
 * (glibc's own, for the M's NPTL thread); the G is pinned to the M for the
 * call. */
static int wait_word(pthread_mutex_t *m, uint32_t val, int64_t deadline)
{
	struct timespec ts, *tp = NULL;
	if (deadline >= 0) {
		/* A CLOCK_REALTIME deadline is re-read on each round, so a
		 * clock change is followed at the next wake-up at the latest. */
		int64_t left = gmp_deadline_left(deadline);
		if (left <= 0)
			return ETIMEDOUT;
		ts.tv_sec = left / 1000000000;
		ts.tv_nsec = left % 1000000000;
		tp = &ts;
	}
	bool entered = entersyscall();
	struct robust_list_head *mh = NULL;
	size_t len;
	if (gmp_syscall(SYS_get_robust_list, 0, &mh, &len) != 0)
		mh = NULL;
	if (mh)
		__atomic_store_n(&mh->list_op_pending, (struct robust_list *)node_of(m), __ATOMIC_RELEASE);
	long r = gmp_syscall6(SYS_futex, (long)&D(m).__lock, FUTEX_WAIT, val, (long)tp, 0, 0);
	if (mh)
		__atomic_store_n(&mh->list_op_pending, NULL, __ATOMIC_RELEASE);
	if (entered)
		exitsyscall();
	return r == -ETIMEDOUT ? ETIMEDOUT : 0;
}

int gmp_robust_lock(pthread_mutex_t *m, int type, int64_t deadline)
{
	int tid = owner_tid(), self = getg()->tid;
	uint32_t *w = (uint32_t *)&D(m).__lock;
	if (gmp_robust_held(m)) {
		if (type == PTHREAD_MUTEX_ERRORCHECK)
			return EDEADLK;
		if (type == PTHREAD_MUTEX_RECURSIVE) {
			if (D(m).__count == UINT_MAX)
				return EAGAIN;
			D(m).__count++;
			return 0;
		}
		if (deadline == GMP_ROBUST_TRY)
			return EBUSY;
		/* A normal mutex relocked by its owner deadlocks, as in NPTL;
		 * with a deadline it times out. */
	}
	/* Once we may have shared FUTEX_WAITERS with other waiters, we keep it
	 * set when we take the lock, so that our unlock wakes them. */
	uint32_t assume = 0;
	for (;;) {
		int r = try_acquire(m, assume, tid, self);
		if (r == EAGAIN)
			continue;
		if (r != EBUSY)
			return r;
		if (deadline == GMP_ROBUST_TRY)
			return EBUSY;
		uint32_t old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
		if (old == 0 || (old & FUTEX_OWNER_DIED))
			continue;
		if (!(old & FUTEX_WAITERS)) {
			if (!__atomic_compare_exchange_n(w, &old, old | FUTEX_WAITERS, 0, __ATOMIC_ACQ_REL,
							 __ATOMIC_RELAXED))
				continue;
			old |= FUTEX_WAITERS;
		}
		assume = FUTEX_WAITERS;
		if (wait_word(m, old, deadline) == ETIMEDOUT)
			return ETIMEDOUT;
	}
}

int gmp_robust_unlock(pthread_mutex_t *m, int type)
{
	if (!gmp_robust_held(m))
		return EPERM;
	int newowner = 0;
	if (D(m).__owner == INCONSISTENT) {
		/* Unlocked without pthread_mutex_consistent: nobody may use
		 * it again. */
		if (type == PTHREAD_MUTEX_RECURSIVE && --D(m).__count != 0)
			return ENOTRECOVERABLE;
		newowner = NOTRECOVERABLE;
	} else if (type == PTHREAD_MUTEX_RECURSIVE && --D(m).__count != 0) {
		return 0;
	}
	uint32_t *w = (uint32_t *)&D(m).__lock;
	struct node *n = node_of(m);
	lock(&rl.lock);
	rl.head.list_op_pending = (struct robust_list *)n;
	dequeue(n);
	D(m).__owner = newowner;
	*holder_of(m) = 0;
	if (__atomic_exchange_n(w, 0, __ATOMIC_RELEASE) & FUTEX_WAITERS)
		futex_wake_shared(w);
	rl.head.list_op_pending = NULL;
	unlock(&rl.lock);
	getg()->robustheld--;
	return 0;
}

/* What the kernel does for a dying thread, for an exiting G: each robust
 * mutex it still holds gets FUTEX_OWNER_DIED, and one waiter is woken. */
void gmp_robust_exit(struct g *gp)
{
	if (gp->robustheld == 0)
		return;
	lock(&rl.lock);
	struct node *n = (struct node *)rl.head.list.next;
	while (n != HEAD) {
		struct node *next = n->next;
		pthread_mutex_t *m = mutex_of(n);
		if (*holder_of(m) == gp->tid) {
			dequeue(n);
			*holder_of(m) = 0;
			uint32_t *w = (uint32_t *)&D(m).__lock;
			uint32_t old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
			while (!__atomic_compare_exchange_n(w, &old, (old & FUTEX_WAITERS) | FUTEX_OWNER_DIED, 0,
							    __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
				;
			if (old & FUTEX_WAITERS)
				futex_wake_shared(w);
		}
		n = next;
	}
	unlock(&rl.lock);
	gp->robustheld = 0;
}

/* A process-shared condvar waits in glibc, which unlocks and relocks the
 * mutex with its own robust code: it compares the word with the TCB's TID
 * and links the mutex into the TCB's list.  For that one call the G is
 * pinned to its M (it is in a syscall), so we let glibc see the M's real
 * TID and register the G's TCB list with the M's task: moved out of our
 * list under the list lock (the word rewritten to the M's TID), the mutex
 * is covered by the kernel at every instant, and it comes back the same
 * way.  Returns the wait's result. */
int gmp_robust_cond_wait(pthread_mutex_t *m, int (*wait)(void *, pthread_mutex_t *, clockid_t, const void *),
			 void *c, clockid_t clk, const void *abstime)
{
	if (!gmp_robust_held(m))
		return EPERM;
	struct g *gp = getg();
	char *tcb = gp->tcb;
	struct robust_list_head *gh = gmp_tls_robust_head(tcb);
	if (gh == NULL) {
		gmp_unsupported("pthread_cond_wait: cannot find glibc's robust list head (EINVAL)");
		return EINVAL;
	}
	bool entered = entersyscall();
	struct m *mp = gp->m;
	int mtid = mp->tid, tid = owner_tid(), self = gp->tid;
	uint32_t *w = (uint32_t *)&D(m).__lock;
	void **ghprev = (void **)((char *)gh - sizeof(void *));
	struct robust_list_head *saved;
	size_t len;
	gmp_syscall(SYS_get_robust_list, 0, &saved, &len);
	struct node *n = node_of(m);

	lock(&rl.lock);
	rl.head.list_op_pending = (struct robust_list *)n;
	/* The G's TCB list, in glibc's format, registered empty, then holding
	 * m (still covered by our pending slot), then m's word names the M. */
	gh->list.next = &gh->list;
	*ghprev = gh;
	gh->futex_offset = rl.head.futex_offset;
	gh->list_op_pending = NULL;
	gmp_syscall(SYS_set_robust_list, gh, sizeof *gh, 0);
	dequeue(n);
	n->next = (struct node *)gh;
	*prev_of(n) = (struct node *)gh;
	*ghprev = n;
	__atomic_store_n(&gh->list.next, (struct robust_list *)n, __ATOMIC_RELEASE);
	uint32_t old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(w, &old, (old & ~TID_MASK) | (uint32_t)mtid, 0, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE))
		;
	*holder_of(m) = 0;
	if (D(m).__owner == self)
		D(m).__owner = mtid;
	int *tidp = gmp_tls_tidp(tcb);
	*tidp = mtid;
	rl.head.list_op_pending = NULL;
	unlock(&rl.lock);
	gp->robustheld--;

	int err = wait(c, m, clk, abstime);

	lock(&rl.lock);
	rl.head.list_op_pending = (struct robust_list *)n;
	old = __atomic_load_n(w, __ATOMIC_ACQUIRE);
	if ((int)(old & TID_MASK) == mtid) {
		/* glibc relocked it into the G's list: bring it home. */
		while (!__atomic_compare_exchange_n(w, &old, (old & ~TID_MASK) | (uint32_t)tid, 0,
						    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			;
		gh->list.next = &gh->list;
		*ghprev = gh;
		enqueue(n);
		*holder_of(m) = self;
		if (D(m).__owner == mtid)
			D(m).__owner = self;
		gp->robustheld++;
	}
	gh->list.next = &gh->list;
	*ghprev = gh;
	gmp_syscall(SYS_set_robust_list, saved, len, 0);
	*tidp = self;
	rl.head.list_op_pending = NULL;
	unlock(&rl.lock);
	if (entered)
		exitsyscall();
	return err;
}

void robust_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_PREPARE) {
		lock(&rl.lock);
	} else if (phase == FORK_PARENT) {
		unlock(&rl.lock);
	} else {
		/* As glibc's fork: the child owns none of the parent's robust
		 * mutexes (their words hold the parent's TID), and its new
		 * template thread registers the list again. */
		rl.lock = (struct mutex){ 0 };
		list_init();
		robust_tid = 0;
		getg()->robustheld = 0;
	}
}
