/* Real-time signals queued on a thread (gsigq.h).  Until stop 58 a G had
 * one pending slot per signal: two instances sent while the thread
 * blocked one, or before it ran, came out as one, with the last siginfo
 * (LTP sigwait/2-1 raised SIGRTMIN twice and found it no longer pending
 * after one sigwait). */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "gsignal.h"
#include "gsigq.h"
#include "rtsig.h"
#include "sys.h"

struct sigq_entry {
	int sig;
	bool fromproc;
	struct gmp_fwdinfo info;
};

/* One page, made the first time gp has more than one instance pending
 * or raises one with a siginfo of its own, and kept with the G for its
 * next threads (a G's memory is never returned).  Natively the limit is
 * per user and higher; 103 instances queued on one thread at once is as
 * far as a program gets here. */
#define SIGQ_BYTES 4096
#define NRT (64 - GMP_SIGRT_FIRST + 1)

struct gmp_sigq {
	uint32_t head, n;
	/* The siginfo of the instance of each signal raised and not yet
	 * landed (one at a time: gmp_sigq_raise_next). */
	struct gmp_fwdinfo inflight[NRT];
	struct sigq_entry e[(SIGQ_BYTES - 8 - NRT * sizeof(struct gmp_fwdinfo)) / sizeof(struct sigq_entry)];
};

#define SIGQ_CAP (sizeof ((struct gmp_sigq *)0)->e / sizeof(struct sigq_entry))

static uint64_t sigq_lock(struct g *gp)
{
	uint64_t all = GMP_SIGMASK_ALL, old;
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8, 0, 0);
	for (unsigned i = 1; __atomic_exchange_n(&gp->sigqlock, 1, __ATOMIC_ACQUIRE) != 0; i++) {
		if (i % 64 == 0)
			gmp_syscall(SYS_sched_yield, 0, 0, 0);
		else
			gmp_spin_pause();
	}
	return old;
}

static void sigq_unlock(struct g *gp, uint64_t old)
{
	__atomic_store_n(&gp->sigqlock, 0, __ATOMIC_RELEASE);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

static struct sigq_entry *at(struct gmp_sigq *q, uint32_t i)
{
	return &q->e[(q->head + i) % SIGQ_CAP];
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
		long r = gmp_syscall6(SYS_mmap, 0, SIGQ_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				      0);
		if (r < 0 && r > -4096)
			return NULL;
		gp->sigq = (struct gmp_sigq *)r;
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
		if (q == NULL || q->n == SIGQ_CAP)
			err = EAGAIN;
		else
			*at(q, q->n++) = (struct sigq_entry){ sig, fromproc, *info };
	}
	sigq_unlock(gp, old);
	return err;
}

/* The oldest queued instance of sig becomes current (locked); false if
 * there is none. */
static bool next_current(struct g *gp, int sig)
{
	struct gmp_sigq *q = gp->sigq;
	if (q == NULL)
		return false;
	for (uint32_t i = 0; i < q->n; i++) {
		struct sigq_entry e = *at(q, i);
		if (e.sig != sig)
			continue;
		for (uint32_t j = i; j + 1 < q->n; j++)
			*at(q, j) = *at(q, j + 1);
		q->n--;
		make_current(gp, sig, &e.info, e.fromproc);
		return true;
	}
	return false;
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
		if (q == NULL || q->n == SIGQ_CAP) {
			sigq_unlock(gp, old);
			return; /* lost, as the kernel loses what it cannot queue */
		}
		q->head = (q->head + SIGQ_CAP - 1) % SIGQ_CAP;
		q->n++;
		bool fromproc = __atomic_load_n(&gp->sigfromproc, __ATOMIC_SEQ_CST) & SIGBIT(sig);
		*at(q, 0) = (struct sigq_entry){ sig, fromproc, gp->fwd[sig - 1] };
	}
	make_current(gp, sig, info, false);
	sigq_unlock(gp, old);
}

void gmp_sigq_reset(struct g *gp)
{
	if (gp->sigq)
		gp->sigq->n = 0;
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
