/* Real-time signals queued on a thread (gsigq.h).  Until stop 58 a G had
 * one pending slot per signal: two instances sent while the thread
 * blocked one, or before it ran, came out as one, with the last siginfo
 * (LTP sigwait/2-1 raised SIGRTMIN twice and found it no longer pending
 * after one sigwait). */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "compat/debug.h"
#include "gsignal.h"
#include "gsigq.h"
#include "rtsig.h"
#include "sys.h"

/* An instance waiting behind the pending one; next: the index of the
 * following one of its signal, or of the following free entry. */
struct sigq_entry {
	uint32_t next;
	bool fromproc;
	struct gmp_fwdinfo info;
};

/* One page, made the first time gp has more than one instance pending
 * or raises one with a siginfo of its own, and kept with the G for its
 * next threads (a G's memory is never returned).  The entries start on
 * that page and move to a mapping of their own, twice as large each
 * time, as they outgrow it, up to SIGQ_MAX (natively the limit is
 * RLIMIT_SIGPENDING, per user: about 96,000 here); they are linked by
 * index, one FIFO per signal.  The in-flight slots never move: the
 * siginfo of a raised instance names one. */
#define SIGQ_BYTES 4096
#define SIGQ_MAX (1u << 17)
#define NRT (64 - GMP_SIGRT_FIRST + 1)
#define NONE UINT32_MAX

struct gmp_sigq {
	uint32_t head[NRT], tail[NRT]; /* per signal: NONE when empty */
	uint32_t free, cap;
	struct sigq_entry *e;
	/* The siginfo of the instance of each signal raised and not yet
	 * landed (one at a time: gmp_sigq_raise_next). */
	struct gmp_fwdinfo inflight[NRT];
	struct sigq_entry first[];
};

#define FIRST_CAP ((SIGQ_BYTES - sizeof(struct gmp_sigq)) / sizeof(struct sigq_entry))

static uint64_t sigq_lock(struct g *gp)
{
	uint64_t all = GMP_SIGMASK_ALL, old;
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8, 0, 0);
	for (unsigned i = 1; __atomic_exchange_n(&gp->sigqlock, 1, __ATOMIC_ACQUIRE) != 0; i++)
		gmp_spin_wait(i);
	return old;
}

static void sigq_unlock(struct g *gp, uint64_t old)
{
	__atomic_store_n(&gp->sigqlock, 0, __ATOMIC_RELEASE);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

static void *map(size_t len)
{
	long r = gmp_syscall6(SYS_mmap, 0, (long)len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return r < 0 && r > -4096 ? NULL : (void *)r;
}

/* Entries [from, to) onto the free list. */
static void add_free(struct gmp_sigq *q, uint32_t from, uint32_t to)
{
	for (uint32_t i = to; i-- > from;) {
		q->e[i].next = q->free;
		q->free = i;
	}
}

/* Nothing queued, the entries back on the page. */
static void empty(struct gmp_sigq *q)
{
	if (q->e != q->first && q->e != NULL)
		gmp_syscall(SYS_munmap, q->e, q->cap * sizeof *q->e, 0);
	q->e = q->first;
	q->cap = FIRST_CAP;
	for (int i = 0; i < NRT; i++)
		q->head[i] = q->tail[i] = NONE;
	q->free = NONE;
	add_free(q, 0, q->cap);
}

/* A free entry (locked): NONE at SIGQ_MAX or without memory. */
static uint32_t get_free(struct gmp_sigq *q)
{
	if (q->free == NONE) {
		uint32_t cap = q->cap * 2;
		struct sigq_entry *e = cap <= SIGQ_MAX ? map(cap * sizeof *e) : NULL;
		if (e == NULL)
			return NONE;
		memcpy(e, q->e, q->cap * sizeof *e);
		if (q->e != q->first)
			gmp_syscall(SYS_munmap, q->e, q->cap * sizeof *e, 0);
		q->e = e;
		add_free(q, q->cap, cap);
		q->cap = cap;
	}
	uint32_t i = q->free;
	q->free = q->e[i].next;
	return i;
}

/* The instance info becomes gp's current one of sig (locked). */
static void make_current(struct g *gp, int sig, const struct gmp_fwdinfo *info, bool fromproc)
{
	uint64_t bit = SIGBIT(sig);
	gp->fwd[sig - 1] = *info;
	__atomic_or_fetch(&gp->fwdmask, bit, __ATOMIC_SEQ_CST);
	if (fromproc)
		__atomic_or_fetch(&gp->sigfromproc, bit, __ATOMIC_SEQ_CST);
	else
		__atomic_and_fetch(&gp->sigfromproc, ~bit, __ATOMIC_SEQ_CST);
	__atomic_or_fetch(&gp->sigpending, bit, __ATOMIC_SEQ_CST);
}

/* The queue, made if need be: NULL if it cannot be (no memory). */
static struct gmp_sigq *queue(struct g *gp)
{
	if (gp->sigq == NULL) {
		struct gmp_sigq *q = map(SIGQ_BYTES);
		if (q == NULL)
			return NULL;
		gp->sigq = q;
		empty(q);
	}
	return gp->sigq;
}

int gmp_sigq_pend(struct g *gp, int sig, const struct gmp_fwdinfo *info, bool fromproc, bool only_new)
{
	int err = 0;
	uint64_t old = sigq_lock(gp);
	if (!(__atomic_load_n(&gp->sigpending, __ATOMIC_SEQ_CST) & SIGBIT(sig))) {
		make_current(gp, sig, info, fromproc);
	} else if (only_new) {
		err = EBUSY;
	} else {
		struct gmp_sigq *q = queue(gp);
		uint32_t i = q ? get_free(q) : NONE;
		if (i == NONE) {
			err = EAGAIN;
		} else {
			int k = sig - GMP_SIGRT_FIRST;
			q->e[i] = (struct sigq_entry){ NONE, fromproc, *info };
			if (q->tail[k] == NONE)
				q->head[k] = i;
			else
				q->e[q->tail[k]].next = i;
			q->tail[k] = i;
		}
	}
	sigq_unlock(gp, old);
	if (err == EAGAIN)
		gmp_unsupported("a real-time signal sent to a thread whose queue is full (EAGAIN)");
	return err;
}

/* The oldest queued instance of sig becomes current (locked); false if
 * there is none. */
static bool next_current(struct g *gp, int sig)
{
	struct gmp_sigq *q = gp->sigq;
	int k = sig - GMP_SIGRT_FIRST;
	if (q == NULL || q->head[k] == NONE)
		return false;
	uint32_t i = q->head[k];
	struct sigq_entry e = q->e[i];
	q->head[k] = e.next;
	if (e.next == NONE)
		q->tail[k] = NONE;
	q->e[i].next = q->free;
	q->free = i;
	make_current(gp, sig, &e.info, e.fromproc);
	return true;
}

/* Takes the current instance (locked). */
static bool take(struct g *gp, int sig, bool fromproc_only, struct gmp_fwdinfo *info)
{
	uint64_t bit = SIGBIT(sig);
	if (!(__atomic_load_n(&gp->sigpending, __ATOMIC_SEQ_CST) & bit) ||
	    (fromproc_only && !(__atomic_load_n(&gp->sigfromproc, __ATOMIC_SEQ_CST) & bit)))
		return false;
	*info = gp->fwd[sig - 1];
	__atomic_and_fetch(&gp->fwdmask, ~bit, __ATOMIC_SEQ_CST);
	__atomic_and_fetch(&gp->sigfromproc, ~bit, __ATOMIC_SEQ_CST);
	if (!next_current(gp, sig))
		__atomic_and_fetch(&gp->sigpending, ~bit, __ATOMIC_SEQ_CST);
	return true;
}

bool gmp_sigq_take(struct g *gp, int sig, bool fromproc_only, struct gmp_fwdinfo *info)
{
	uint64_t old = sigq_lock(gp);
	bool taken = take(gp, sig, fromproc_only, info);
	sigq_unlock(gp, old);
	return taken;
}

void gmp_sigq_unget(struct g *gp, int sig, const struct gmp_fwdinfo *info)
{
	uint64_t old = sigq_lock(gp);
	if (__atomic_load_n(&gp->sigpending, __ATOMIC_SEQ_CST) & SIGBIT(sig)) {
		struct gmp_sigq *q = queue(gp);
		uint32_t i = q ? get_free(q) : NONE;
		if (i == NONE) {
			sigq_unlock(gp, old);
			gmp_unsupported("a real-time signal put back on a thread whose queue is full: lost");
			return;
		}
		int k = sig - GMP_SIGRT_FIRST;
		bool fromproc = __atomic_load_n(&gp->sigfromproc, __ATOMIC_SEQ_CST) & SIGBIT(sig);
		q->e[i] = (struct sigq_entry){ q->head[k], fromproc, gp->fwd[sig - 1] };
		q->head[k] = i;
		if (q->tail[k] == NONE)
			q->tail[k] = i;
	}
	make_current(gp, sig, info, false);
	sigq_unlock(gp, old);
}

void gmp_sigq_reset(struct g *gp)
{
	if (gp->sigq)
		empty(gp->sigq);
	gp->sigqlock = 0;
}

/* An instance with a siginfo other than tkill's goes as SI_QUEUE from
 * this process whose value is the address of its siginfo's slot, which
 * no other sender can name: qemu-user passes on only the fields a
 * siginfo of its code has.  Without a queue (no memory) it goes as
 * tkill's. */
static void raise_one(struct g *gp, int sig, const struct gmp_fwdinfo *info)
{
	struct gmp_sigq *q = info->code == SI_TKILL ? NULL : queue(gp);
	if (q == NULL) {
		gmp_syscall(SYS_tgkill, gmp_pid, gp->m->tid, sig);
		return;
	}
	struct gmp_fwdinfo *slot = &q->inflight[sig - GMP_SIGRT_FIRST];
	*slot = *info;
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = sig;
	si.si_code = SI_QUEUE;
	si.si_pid = gmp_pid;
	si.si_uid = info->uid;
	si.si_value.sival_ptr = slot;
	gmp_syscall6(SYS_rt_tgsigqueueinfo, gmp_pid, gp->m->tid, sig, (long)&si, 0, 0);
}

bool gmp_sigq_raise_next(struct g *gp, int sig, uint64_t *raised)
{
	struct gmp_fwdinfo info;
	uint64_t old = sigq_lock(gp);
	bool ok = !(__atomic_load_n(raised, __ATOMIC_SEQ_CST) & SIGBIT(sig)) && take(gp, sig, false, &info);
	if (ok) {
		__atomic_or_fetch(raised, SIGBIT(sig), __ATOMIC_SEQ_CST);
		raise_one(gp, sig, &info);
	}
	sigq_unlock(gp, old); /* it lands here if gp's mask lets it in */
	return ok;
}

bool gmp_sigq_unwrap(struct g *gp, siginfo_t *si)
{
	int sig = si->si_signo;
	if (si->si_code != SI_QUEUE || si->si_pid != gmp_pid || gp == NULL || gp->sigq == NULL ||
	    !gmp_sig_queues(sig) || sig > 64 || si->si_value.sival_ptr != &gp->sigq->inflight[sig - GMP_SIGRT_FIRST])
		return false;
	gmp_fwdinfo_apply(si, &gp->sigq->inflight[sig - GMP_SIGRT_FIRST]);
	return true;
}
