/* Robust lists a program registers itself through syscall(SYS_set_robust_list)
 * and the clear_child_tid word of set_tid_address, per G
 * (glibc registers its own with an inline system call, which never comes
 * here; robust.c covers glibc's robust mutexes).
 *
 * The kernel keeps one list head per task and walks it when the task
 * dies.  Registered from a G, the head would replace the M's own (glibc's
 * list of the M's NPTL thread, on which robust.c's waits rely) and be
 * walked for no thread, or never.  So the head is kept per G, and at the
 * G's exit the list is walked as the kernel's exit_robust_list does: each
 * word (entry + futex_offset, and the pending entry) that holds the G's
 * TID gets FUTEX_OWNER_DIED with FUTEX_WAITERS kept and the TID cleared,
 * and one waiter is woken unless the entry is a PI one (bit 0 of the
 * link), whose waiters gmp_futex_pi_exit has already served.  Unlike the
 * kernel, which reads the list fault-safely, every pointer is checked to
 * be mapped before it is read. */
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "compat/tls.h"
#include "futex.h"
#include "mapkind.h"
#include "sys.h"
#include "thread.h"

#define ROBUST_LIMIT 2048 /* the kernel's ROBUST_LIST_LIMIT */

long gmp_futex_set_robust_list(void *head, size_t len)
{
	struct g *gp = getg();
	if (gp == NULL) /* a foreign thread: its own task's list */
		return gmp_syscall(SYS_set_robust_list, head, len, 0);
	if (len != sizeof(struct robust_list_head))
		return -EINVAL;
	gp->rawrobust = head;
	gp->rawrobustlen = len;
	return 0;
}

long gmp_futex_get_robust_list(int pid, void **headp, size_t *lenp)
{
	struct g *gp = getg() ? gmp_tid_g(pid) : NULL;
	if (gp == NULL || (gp->flags & G_FOREIGN))
		return gmp_syscall(SYS_get_robust_list, pid, headp, lenp);
	/* NPTL registers every thread's own head as it starts (stress-ng's
	 * pthread stressor copies it: a NULL head crashed it). */
	*headp = gp->rawrobust ? gp->rawrobust : gmp_tls_robust_head(gp->tcb);
	*lenp = sizeof(struct robust_list_head);
	return 0;
}

long gmp_futex_set_tid_address(int *tidptr)
{
	struct g *gp = getg();
	if (gp == NULL || (gp->flags & G_FOREIGN))
		return gmp_syscall(SYS_set_tid_address, tidptr, 0, 0);
	gp->cleartid = tidptr;
	gp->cleartidset = true;
	return gp->tid;
}

int *gmp_futex_tid_address(struct g *gp)
{
	return gp->cleartidset ? gp->cleartid : gmp_tls_tidp(gp->tcb);
}

/* Whether p, aligned to align, may be read: a look at the mappings (a
 * system call) for each page not seen mapped before in this walk, *seen
 * (the kernel reads the list fault-safely, as cheaply as any memory; a
 * list stress-ng registers, a copy of the TCB's head, leads into a loop
 * that the kernel walks to its limit: 2,048 looks at every thread exit). */
static bool readable(const void *p, uintptr_t align, uintptr_t *seen)
{
	uintptr_t page = (uintptr_t)p & ~(uintptr_t)4095;
	if ((uintptr_t)p % align != 0)
		return false;
	if (page == *seen)
		return true;
	if (gmp_mapkind(p) == MAPKIND_NONE)
		return false;
	*seen = page;
	return true;
}

static void owner_died(uint32_t *uaddr, int tid, bool pi, bool pending, uintptr_t *seen)
{
	if (!readable(uaddr, 4, seen))
		return;
	uint32_t w = __atomic_load_n(uaddr, __ATOMIC_ACQUIRE);
	if (pending && !pi && w == 0) {
		/* Died between releasing it and leaving the pending slot: the
		 * wake-up it owed may not have happened. */
		gmp_sys_futex(uaddr, FUTEX_WAKE, 1, NULL, NULL, 0);
		return;
	}
	do {
		if ((int)(w & FUTEX_TID_MASK) != tid)
			return;
	} while (!__atomic_compare_exchange_n(uaddr, &w, (w & FUTEX_WAITERS) | FUTEX_OWNER_DIED, 0, __ATOMIC_ACQ_REL,
					      __ATOMIC_ACQUIRE));
	if (!pi && (w & FUTEX_WAITERS))
		gmp_sys_futex(uaddr, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* As the kernel's mm_release: 0 into the word, and one waiter woken
 * (stress-ng's pthread stressor sets it back to the TCB's own, which the
 * runtime manages itself). */
void gmp_futex_cleartid_exit(struct g *gp)
{
	int *p = gp->cleartid;
	if (!gp->cleartidset || p == NULL || p == gmp_tls_tidp(gp->tcb) || (uintptr_t)p % 4 != 0 ||
	    gmp_mapkind(p) == MAPKIND_NONE)
		return;
	__atomic_store_n(p, 0, __ATOMIC_RELEASE);
	gmp_sys_futex((uint32_t *)p, FUTEX_WAKE, 1, NULL, NULL, 0);
}

void gmp_futex_robust_exit(struct g *gp)
{
	struct robust_list_head *head = gp->rawrobust;
	uintptr_t seen = 0;
	if (head == NULL || !readable(head, sizeof(void *), &seen))
		return;
	gp->rawrobust = NULL;
	long off = head->futex_offset;
	uintptr_t pending = (uintptr_t)head->list_op_pending;
	uintptr_t entry = (uintptr_t)head->list.next;
	for (int limit = ROBUST_LIMIT; entry != (uintptr_t)&head->list && limit > 0; limit--) {
		struct robust_list *e = (struct robust_list *)(entry & ~(uintptr_t)1);
		if (!readable(e, sizeof(void *), &seen))
			break;
		uintptr_t next = (uintptr_t)e->next;
		if (entry != pending)
			owner_died((uint32_t *)((char *)e + off), gp->tid, entry & 1, false, &seen);
		if (next == entry)
			break; /* the kernel would visit it to its limit, to no more effect */
		entry = next;
	}
	if (pending)
		owner_died((uint32_t *)((char *)(pending & ~(uintptr_t)1) + off), gp->tid, pending & 1, true, &seen);
}
