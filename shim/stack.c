/* G memory.  Each G's memory is laid out like an NPTL stack so that
 * pthread_getattr_np reports what NPTL would:
 *   [guard][stack ......... static TLS | TCB | struct g]
 * The requested stack size includes TLS, TCB and G (as under NPTL, where
 * TLS and the descriptor live at the top of the stack); the guard is
 * extra.  A G on a user stack (pthread_attr_setstack) gets a small mapping
 * with only TLS, TCB and G, and runs on the user's memory as given.
 *
 * Where that memory comes from.  A G with default attributes (the default
 * stack size and a one-page guard: nearly every thread of a program that
 * makes many) gets a slot of an arena, one mapping carved into such slots
 * (up to 4 GiB of them: 512 of 8 MiB), its guard installed with
 * MADV_GUARD_INSTALL (Linux 6.13+), which marks page-table entries and
 * leaves the mapping whole: mappings
 * grow by one an arena, not one or two a thread, and a new thread costs
 * one system call instead of two.  Any other G gets a mapping of its own,
 * with its guard installed the same way.  A kernel without
 * MADV_GUARD_INSTALL gets a mapping per G with an mprotect'd guard, two
 * mappings a thread, and vm.max_map_count (65530 by default) caps the
 * threads near 32,700; the first creation refused for that says so in one
 * line on stderr.  Arenas are never unmapped: Gs never are (the
 * registry's unlocked walk follows them), and a free G keeps its slot. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "compat/debug.h"
#include "compat/tls.h"
#include "runtime.h"
#include "stack.h"
#include "sys.h"

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

static const size_t pagesize = 4096;

/* The kernel refused MADV_GUARD_INSTALL (EINVAL: older than 6.13), or
 * GMPDEBUG=guardinstall=0 plays that it did. */
static int no_guard_install;

static bool failed(long r)
{
	return r < 0 && r > -4096;
}

static void *map_anon(size_t len, int extra)
{
	long r = gmp_syscall6(SYS_mmap, 0, (long)len, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | extra, -1, 0);
	return failed(r) ? NULL : (void *)r;
}

static bool guard_install(void *addr, size_t len)
{
	if (__atomic_load_n(&no_guard_install, __ATOMIC_RELAXED) || gmp_debug.noguardinstall)
		return false;
	long r = gmp_syscall(SYS_madvise, addr, len, MADV_GUARD_INSTALL);
	if (r == -EINVAL)
		__atomic_store_n(&no_guard_install, 1, __ATOMIC_RELAXED);
	return r == 0;
}

/* Guard pages, without splitting the mapping where the kernel can; false
 * if neither way worked (mprotect fails once vm.max_map_count is hit). */
static bool guard(void *addr, size_t len)
{
	if (len == 0 || guard_install(addr, len))
		return true;
	return gmp_syscall(SYS_mprotect, addr, len, PROT_NONE) == 0;
}

void gmp_guard_pages(void *addr, size_t len)
{
	guard(addr, len);
}

/* Read once, as NPTL reads RLIMIT_STACK once at start-up: a later
 * setrlimit changes neither's default. */
size_t gmp_default_stacksize(void)
{
	static size_t cached;
	size_t s = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (s)
		return s;
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) {
		s = 2 * 1024 * 1024;
	} else {
		s = rl.rlim_cur;
		if (s < 16384)
			s = 16384;
		s = (s + pagesize - 1) & ~(pagesize - 1);
	}
	__atomic_store_n(&cached, s, __ATOMIC_RELAXED);
	return s;
}

/* --- arenas of default-attribute slots --- */

/* Arenas double from 8 slots up to 4 GiB of address space (512 slots of
 * 8 MiB + 4 KiB), so what is reserved and unused never exceeds what is
 * used by more than the first arena, and a million threads take ~2,000
 * mappings at most, fewer where neighbours merge.  Under an RLIMIT_AS an
 * arena takes at most 1/32 of it.  MAP_NORESERVE: nothing is committed
 * before it is touched. */
#define ARENA_BYTES (4ull << 30)
#define ARENA_FIRST_SLOTS 8
#define ARENA_MAX_SLOTS 4096

/* At the start of its own mapping, slots after it. */
struct arena {
	uintptr_t first;  /* slot 0 */
	size_t nslots;
	size_t slot;      /* bytes: guard + stack */
	size_t next;      /* atomic: the next slot to hand out */
};

static struct arena *cur_arena; /* atomic */
static size_t arena_slots = ARENA_FIRST_SLOTS; /* the next arena's; racy, only a size */

static struct arena *map_arena(size_t slot, size_t guardsz)
{
	size_t n = __atomic_load_n(&arena_slots, __ATOMIC_RELAXED);
	size_t most = ARENA_BYTES / slot;
	struct rlimit as;
	if (gmp_syscall6(SYS_prlimit64, 0, RLIMIT_AS, 0, (long)&as, 0, 0) == 0 && as.rlim_cur != RLIM_INFINITY &&
	    as.rlim_cur / 32 / slot < most)
		most = as.rlim_cur / 32 / slot;
	most = most > ARENA_MAX_SLOTS ? ARENA_MAX_SLOTS : most < 1 ? 1 : most;
	n = n > most ? most : n;
	__atomic_store_n(&arena_slots, n * 2, __ATOMIC_RELAXED);
	size_t len = pagesize + n * slot;
	/* MAP_STACK: no transparent huge pages (Linux 6.7+), which would
	 * give each stack's few touched pages 2 MiB. */
	struct arena *a = map_anon(len, MAP_STACK);
	if (a == NULL)
		return NULL;
	a->first = (uintptr_t)a + pagesize;
	a->nslots = n;
	a->slot = slot;
	a->next = 0;
	/* Slot 0's guard tells whether the kernel can guard a slot without
	 * splitting the arena; without that, an arena is no better than a
	 * mapping per G. */
	if (!guard_install((void *)a->first, guardsz)) {
		gmp_syscall(SYS_munmap, a, len, 0);
		return NULL;
	}
	return a;
}

/* A slot of slot bytes whose first guardsz are guard pages, or 0 when the
 * kernel cannot guard one without a mapping of its own.  Lock-free: a bump
 * index per arena, and a race to install the next arena that the loser
 * unmaps. */
static uintptr_t carve(size_t slot, size_t guardsz)
{
	for (;;) {
		if (__atomic_load_n(&no_guard_install, __ATOMIC_RELAXED) || gmp_debug.noguardinstall)
			return 0;
		struct arena *a = __atomic_load_n(&cur_arena, __ATOMIC_ACQUIRE);
		if (a) {
			size_t i = __atomic_fetch_add(&a->next, 1, __ATOMIC_RELAXED);
			if (i < a->nslots) {
				uintptr_t s = a->first + i * slot;
				/* Slot 0's is there already; installing twice is harmless. */
				return guard_install((void *)s, guardsz) ? s : 0;
			}
		}
		struct arena *na = map_arena(slot, guardsz);
		if (na == NULL)
			return 0;
		if (!__atomic_compare_exchange_n(&cur_arena, &a, na, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			gmp_syscall(SYS_munmap, na, pagesize + na->nslots * slot, 0);
	}
}

/* Once: a creation failed for want of mappings, not of memory. */
static void ceiling_reached(void)
{
	static int said;
	if (!__atomic_load_n(&no_guard_install, __ATOMIC_RELAXED) && !gmp_debug.noguardinstall)
		return; /* guards split nothing: the kernel is out of memory */
	if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		return;
	gmp_printf("gmpshim: pthread_create: EAGAIN with %d threads: without MADV_GUARD_INSTALL (Linux 6.13+) "
		   "each thread's stack takes two mappings, and vm.max_map_count caps them\n",
		   __atomic_load_n(&sched.ngs, __ATOMIC_RELAXED));
}

/* --- G memory --- */

/* Space the top of a G mapping needs for TLS, TCB and the struct g. */
static size_t top_reserve(void)
{
	return gmp_tls_reserve() + ((sizeof(struct g) + 63) & ~(size_t)63) + 64;
}

/* Stacks at least this large give up to a page of their top so that the
 * struct g's cold fields lie on a page of their own (carve_top). */
#define SPLIT_STACK_MIN (256 * 1024)

/* Places the struct g and the TCB at the top of [lo, hi) (fresh, zero
 * memory) and returns the G; *stack_hi gets the highest usable stack
 * address.  split: the G's hot fields end at a page boundary and its cold
 * ones lie above it, so a parked thread's memory is two pages, one with
 * the top of its stack, one with its static TLS, TCB and hot G fields
 * (glibc's 4 KiB of static TLS and TCB keep it from being one); with the
 * G just above the TCB it was three. */
static struct g *carve_top(uintptr_t hi, uintptr_t *stack_hi, bool split)
{
	uintptr_t gaddr = (hi - sizeof(struct g)) & ~(uintptr_t)63;
	if (split) {
		uintptr_t boundary = (hi - (sizeof(struct g) - GMP_G_HOT_SIZE)) & ~(uintptr_t)(pagesize - 1);
		gaddr = (boundary - GMP_G_HOT_SIZE) & ~(uintptr_t)63;
	}
	struct g *gp = (struct g *)gaddr;
	gp->tcb = gmp_tls_place(gaddr, stack_hi);
	return gp;
}

struct g *malg(size_t stack_size, size_t guard_size, void *user_stack, size_t user_size)
{
	size_t reserve = top_reserve();
	guard_size = (guard_size + pagesize - 1) & ~(pagesize - 1);
	if (user_stack) {
		size_t total = (reserve + pagesize - 1) & ~(pagesize - 1);
		void *base = map_anon(total, 0);
		if (base == NULL)
			return NULL;
		uintptr_t unused;
		struct g *gp = carve_top((uintptr_t)base + total, &unused, false);
		gp->map_base = base;
		gp->map_size = total;
		gp->flags = G_USERSTACK;
		gp->stack_lo = user_stack;
		gp->stack_size = user_size;
		return gp;
	}
	/* POSIX promises that PTHREAD_STACK_MIN (16 KiB) is enough to create
	 * a thread, but TLS, TCB and a struct g leave little of that: a stack
	 * too small for them plus four pages gets that much, as glibc too
	 * rounds a small stack up. */
	if (stack_size < reserve + 4 * pagesize)
		stack_size = reserve + 4 * pagesize;
	bool split = stack_size >= SPLIT_STACK_MIN;
	stack_size = (stack_size + pagesize - 1) & ~(pagesize - 1);
	size_t total = stack_size + guard_size;
	void *base = NULL;
	if (stack_size == gmp_default_stacksize() && guard_size == pagesize)
		base = (void *)carve(total, guard_size);
	if (base == NULL) {
		base = map_anon(total, MAP_STACK);
		if (base == NULL) {
			ceiling_reached();
			return NULL;
		}
		if (!guard(base, guard_size)) {
			gmp_syscall(SYS_munmap, base, total, 0);
			ceiling_reached();
			return NULL;
		}
	}
	uintptr_t stack_hi;
	struct g *gp = carve_top((uintptr_t)base + total, &stack_hi, split);
	gp->map_base = base;
	gp->map_size = total;
	gp->stack_lo = (char *)base + guard_size;
	gp->stack_size = stack_size;
	gp->guard_size = guard_size;
	return gp;
}

/* Highest address a G's context may use. */
uintptr_t gmp_stack_top(struct g *gp)
{
	if (gp->flags & G_USERSTACK)
		return (uintptr_t)gp->stack_lo + gp->stack_size;
	return gmp_tls_lowest(gp->tcb) & ~(uintptr_t)63;
}

/* The part of free G gp's stack that may go: none on a user stack (the
 * program's memory); the page shared with the TLS stays. */
static bool release_range(struct g *gp, struct iovec *iov)
{
	if (gp->flags & G_USERSTACK)
		return false;
	uintptr_t lo = (uintptr_t)gp->stack_lo, hi = gmp_stack_top(gp) & ~(uintptr_t)(pagesize - 1);
	iov->iov_base = (void *)lo;
	iov->iov_len = hi > lo ? hi - lo : 0;
	return hi > lo;
}

/* Each MADV_DONTNEED that drops touched pages flushes the TLB of every
 * CPU running one of the program's threads: an IPI that interrupts them.
 * process_madvise over many ranges of the calling process (Linux 6.13+
 * takes any advice for it, 6.15+ names it PIDFD_SELF, 6.16+ flushes once
 * per call) returns a batch of stacks for one.  Refused (an older kernel,
 * a seccomp filter): one madvise per stack, from then on. */
#define RELEASE_IOV 64
#define PIDFD_SELF_PROCESS (-10000)
static int batched = 1; /* sysmon's alone */

static void release_each(struct iovec *iov, int n)
{
	for (int i = 0; i < n; i++)
		gmp_syscall(SYS_madvise, (uintptr_t)iov[i].iov_base, iov[i].iov_len, MADV_DONTNEED);
}

static void release_iov(struct iovec *iov, int n)
{
	size_t total = 0;
	for (int i = 0; i < n; i++)
		total += iov[i].iov_len;
	if (batched) {
		long r = gmp_syscall6(SYS_process_madvise, PIDFD_SELF_PROCESS, (uintptr_t)iov, n, MADV_DONTNEED, 0, 0);
		if (r == (long)total)
			return;
		if (r < 0)
			batched = 0;
	}
	release_each(iov, n); /* idempotent for the part a short count did */
}

void gmp_stack_release_list(struct g *list)
{
	struct iovec iov[RELEASE_IOV];
	int n = 0;
	for (struct g *gp = list; gp; gp = gp->schedlink) {
		if (!release_range(gp, &iov[n]))
			continue;
		if (++n == RELEASE_IOV) {
			release_iov(iov, n);
			n = 0;
		}
	}
	if (n > 0)
		release_iov(iov, n);
}

void gmp_unmap_g(struct g *gp)
{
	/* A slot of an arena goes too: the arena splits in two, on a path
	 * (ld.so out of memory for the TLS) that gives up anyway. */
	gmp_syscall(SYS_munmap, gp->map_base, gp->map_size, 0);
}
