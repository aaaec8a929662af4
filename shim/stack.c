/* G memory.  One mapping per G, laid out like an NPTL stack so that
 * pthread_getattr_np reports what NPTL would:
 *   [guard][stack ......... static TLS | TCB | struct g]
 * The requested stack size includes TLS, TCB and G (as under NPTL, where
 * TLS and the descriptor live at the top of the stack); the guard is
 * extra.  A G on a user stack (pthread_attr_setstack) gets a small mapping
 * with only TLS, TCB and G, and runs on the user's memory as given. */
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "compat/tls.h"
#include "runtime.h"
#include "stack.h"

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

static size_t pagesize = 4096;

/* Guard pages without splitting the mapping where the kernel can (Linux
 * 6.13+); an mprotect'd guard costs one more VMA per G otherwise. */
void gmp_guard_pages(void *addr, size_t len)
{
	static int no_guard_install;
	if (len == 0)
		return;
	if (!no_guard_install && madvise(addr, len, MADV_GUARD_INSTALL) == 0)
		return;
	no_guard_install = 1;
	mprotect(addr, len, PROT_NONE);
}

size_t gmp_default_stacksize(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 2 * 1024 * 1024;
	size_t s = rl.rlim_cur;
	if (s < 16384)
		s = 16384;
	return (s + pagesize - 1) & ~(pagesize - 1);
}

/* Space the top of a G mapping needs for TLS, TCB and the struct g. */
static size_t top_reserve(void)
{
	return gmp_tls_reserve() + ((sizeof(struct g) + 63) & ~(size_t)63) + 64;
}

/* Places the struct g and the TCB at the top of [lo, hi) and returns the
 * G; *stack_hi gets the highest usable stack address. */
static struct g *carve_top(uintptr_t hi, uintptr_t *stack_hi)
{
	uintptr_t gaddr = (hi - sizeof(struct g)) & ~(uintptr_t)63;
	struct g *gp = (struct g *)gaddr;
	memset(gp, 0, sizeof *gp);
	gp->tcb = gmp_tls_place(gaddr, stack_hi);
	return gp;
}

struct g *malg(size_t stack_size, size_t guard_size, void *user_stack, size_t user_size)
{
	size_t reserve = top_reserve();
	guard_size = (guard_size + pagesize - 1) & ~(pagesize - 1);
	if (user_stack) {
		size_t total = (reserve + pagesize - 1) & ~(pagesize - 1);
		void *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (base == MAP_FAILED)
			return NULL;
		uintptr_t unused;
		struct g *gp = carve_top((uintptr_t)base + total, &unused);
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
	stack_size = (stack_size + pagesize - 1) & ~(pagesize - 1);
	size_t total = stack_size + guard_size;
	void *base = mmap(NULL, total, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	gmp_guard_pages(base, guard_size);
	uintptr_t stack_hi;
	struct g *gp = carve_top((uintptr_t)base + total, &stack_hi);
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

void gmp_unmap_g(struct g *gp)
{
	munmap(gp->map_base, gp->map_size);
}
