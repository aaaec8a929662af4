/* valgrind, ASan and TSan under the shim.
 *
 * valgrind: every G stack and g0 stack is registered with
 * VALGRIND_STACK_REGISTER, so memcheck knows a jump of the stack pointer
 * between them is a switch and not a huge frame.  The client requests are
 * a few no-op instructions when not running under valgrind.
 *
 * ASan and TSan keep their per-thread state where a G has its own copy:
 * ASan's under a pthread key (ours are per G), TSan's in static TLS (each
 * G has its own TLS block).  So each G is a thread of its own to them, made
 * by their pthread_create interceptor around ours.  ASan also records the
 * thread's stack bounds: its fiber interface
 * (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber,
 * looked up with dlsym) is called around every gmp_swap, so that code on
 * g0 is known to run on the g0 stack.  TSan's fiber interface is not used:
 * a TSan fiber is a thread state of its own that __tsan_switch_to_fiber
 * installs in the current TLS block, which would replace the state TSan's
 * thread start set up in the G's TLS; the FS switch already selects the
 * right one.  docs/compat.md says how far this gets a sanitized program. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "compat/tls.h"
#include "insight.h"
#include "registry.h"
#include "runtime.h"
#include "sanitizer.h"
#include "stack.h"

#ifdef GMP_HAVE_VALGRIND
#include <valgrind/valgrind.h>
#endif

struct gmp_san gmp_san;

static void (*lsan_register)(const void *, size_t);
static int lsan_armed;
static void lsan_roots_at_exit(void);

#define PAGE 4096

void gmp_san_g0_stack(struct m *mp, const void **lo, size_t *size)
{
	*lo = (const char *)mp + 2 * PAGE;
	*size = M_REGION_SIZE - 2 * PAGE;
}

/* The valgrind stack id of each G, kept beside it rather than in struct g:
 * only under valgrind, keyed by the G's address (Gs are never freed). */
#ifdef GMP_HAVE_VALGRIND
#define VG_SLOTS 65536
static struct vgslot {
	struct g *gp;
	uintptr_t lo, hi;
	unsigned id;
} vgslots[VG_SLOTS];

static void vg_register(struct g *gp, uintptr_t lo, uintptr_t hi)
{
	uint32_t h = (uint32_t)(((uintptr_t)gp >> 12) * 2654435761u) % VG_SLOTS;
	for (uint32_t i = 0; i < VG_SLOTS; i++) {
		struct vgslot *s = &vgslots[(h + i) % VG_SLOTS];
		struct g *cur = __atomic_load_n(&s->gp, __ATOMIC_ACQUIRE);
		if (cur == gp) {
			if (s->lo == lo && s->hi == hi)
				return;
			VALGRIND_STACK_DEREGISTER(s->id);
			s->lo = lo;
			s->hi = hi;
			s->id = VALGRIND_STACK_REGISTER(lo, hi);
			return;
		}
		if (cur == NULL) {
			struct g *none = NULL;
			if (!__atomic_compare_exchange_n(&s->gp, &none, gp, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				i--; /* taken meanwhile: look at it again */
				continue;
			}
			s->lo = lo;
			s->hi = hi;
			s->id = VALGRIND_STACK_REGISTER(lo, hi);
			return;
		}
	}
	/* Table full: valgrind warns about a stack switch, nothing worse. */
}
#endif

void gmp_san_g_new(struct g *gp)
{
#ifdef GMP_HAVE_VALGRIND
	if (RUNNING_ON_VALGRIND)
		vg_register(gp, (uintptr_t)gp->stack_lo, (uintptr_t)gp->stack_lo + gp->stack_size);
#endif
	if (lsan_register && !__atomic_exchange_n(&lsan_armed, 1, __ATOMIC_ACQ_REL))
		atexit(lsan_roots_at_exit);
}

void gmp_san_m_new(struct m *mp)
{
#ifdef GMP_HAVE_VALGRIND
	if (RUNNING_ON_VALGRIND) {
		const void *lo;
		size_t size;
		gmp_san_g0_stack(mp, &lo, &size);
		VALGRIND_STACK_REGISTER((uintptr_t)lo, (uintptr_t)lo + size);
	}
#endif
	(void)mp;
}

/* LeakSanitizer (in ASan, or alone) finds the live threads by asking the
 * kernel which tasks the process has and looking each TID up in its own
 * thread registry: it scans the stack and TLS of at most one G per M, and
 * not from where that G's stack really is.  A pointer held only on the
 * stack or in the TLS of a parked G would be a leak.  So just before
 * LSan's check at exit every live G's stack, from its saved stack pointer
 * up, and its TLS/TCB are made LSan root regions.  Running Gs are not
 * stopped here: their whole stack is given, below the stack pointer too.
 *
 * "Just before": LSan's check is an atexit handler of the sanitizer
 * library, run by ld.so's _dl_fini, which __libc_start_main registered
 * with exit just before main.  Our handler must be registered after that,
 * so exit runs it first: it is registered when the first thread is
 * created, not in the constructor. */
static void lsan_root(struct g *gp, void *arg)
{
	(void)arg;
	uint32_t st = __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE);
	if (st == G_IDLE || st == G_DEAD || gp->stack_lo == NULL)
		return;
	uintptr_t lo = (uintptr_t)gp->stack_lo;
	uintptr_t top = (gp->flags & (G_MAIN | G_USERSTACK)) ? lo + gp->stack_size : gmp_stack_top(gp);
	uintptr_t sp = gp->sched_sp;
	if ((st == G_RUNNABLE || st == G_WAITING) && sp > lo && sp < top)
		lo = sp;
	lsan_register((const void *)lo, top - lo);
	if (gp->flags & G_MAIN) {
		uintptr_t tls = gmp_tls_lowest(gp->tcb);
		lsan_register((const void *)tls, gmp_tls_reserve());
	} else if (gp->flags & G_USERSTACK) {
		lsan_register(gp->map_base, gp->map_size);
	} else {
		lsan_register((const void *)top, (uintptr_t)gp->stack_lo + gp->stack_size - top);
	}
}

/* With ASan's detect_stack_use_after_return, a parked G's locals live in
 * its fake stack, which start_switch_fiber left in g->asan_fake: the
 * FakeStack object heads the mapping that holds its frames, so the rest of
 * that mapping is given too (as read from /proc/self/maps; a neighbouring
 * mapping merged into it only widens the roots). */
static uintptr_t mapping_end(uintptr_t addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	if (f == NULL)
		return 0;
	unsigned long lo, hi;
	uintptr_t end = 0;
	char line[512];
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && addr >= lo && addr < hi) {
			end = hi;
			break;
		}
	fclose(f);
	return end;
}

static void lsan_fake_root(struct g *gp, void *arg)
{
	(void)arg;
	uint32_t st = __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE);
	uintptr_t fake = (uintptr_t)gp->asan_fake;
	if ((st != G_RUNNABLE && st != G_WAITING) || fake == 0)
		return;
	uintptr_t end = mapping_end(fake);
	if (end > fake)
		lsan_register((const void *)fake, end - fake);
}

static void lsan_roots_at_exit(void)
{
	gmp_registry_foreach(lsan_root, NULL);
	if (gmp_san.asan_start)
		gmp_registry_foreach(lsan_fake_root, NULL);
}

void gmp_sanitizer_init(void)
{
#ifdef GMP_HAVE_VALGRIND
	/* Gs and Ms made before this point (main's, M0's). */
	if (RUNNING_ON_VALGRIND) {
		for (struct m *mp = gmp_allm; mp; mp = mp->alllink)
			gmp_san_m_new(mp);
	}
#endif
	void *start = dlsym(RTLD_DEFAULT, "__sanitizer_start_switch_fiber");
	void *finish = dlsym(RTLD_DEFAULT, "__sanitizer_finish_switch_fiber");
	if (start && finish && dlsym(RTLD_DEFAULT, "__asan_init")) {
		gmp_san.asan_start = (void (*)(void **, const void *, size_t))start;
		gmp_san.asan_finish = (void (*)(void *, const void **, size_t *))finish;
	}
	lsan_register = (void (*)(const void *, size_t))dlsym(RTLD_DEFAULT, "__lsan_register_root_region");
	gmp_san.active = gmp_san.asan_start != NULL;
}
