/* Signal stacks, per M and per G.
 *
 * The kernel keeps one alternate stack per thread, that is per M; the
 * program sets one per thread, that is per G.  Loading the G's into the
 * kernel as it is switched in, and the M's own back as it leaves, cost two
 * system calls a switch in every program whose threads set one (Rust's
 * threads all do, stress-ng's processes do).  So, as Go does for its Ms,
 * the kernel knows only each M's own stack (gsignal), set once, and every
 * action of the runtime's has SA_ONSTACK: every frame lands there.  A
 * handler entered for a G moves its frame at once (gmp_sigstack_enter) to
 * where the kernel would have put it for that thread, the G's alternate
 * stack or below its stack pointer, and runs there, so that it can switch
 * the G out (preemption, a handler that blocks) and the G can return
 * from it on another M: nothing of the G's stays on the M's stack.  The
 * G's alternate stack is the runtime's record alone: sigaltstack answers
 * from it (gmp_sigaltstack), the moved frame's uc_stack shows it to the
 * program's handler, and its return restores it from there, as
 * rt_sigreturn does (SS_AUTODISARM included).
 *
 * The trampoline's action blocks every signal until the frame has moved
 * (sigtramp.c): one landing before would be on the M's stack, for a G
 * whose frame has not left it yet. */
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "arch.h"
#include "compat/debug.h"
#include "gsignal.h"
#include "gsigstack.h"
#include "mapkind.h"
#include "rtsig.h"
#include "stack.h"
#include "sys.h"

#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1 << 31) /* linux/signal.h: disarmed while a handler runs on it */
#endif

#define PAGE 4096
#define GSIGNAL_SIZE (256 * 1024)

void gmp_gsignal_alloc(struct m *mp)
{
	char *p = mmap(NULL, PAGE + GSIGNAL_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		       -1, 0);
	if (p == MAP_FAILED)
		gmp_throw("allocm: cannot map a signal stack");
	gmp_guard_pages(p, PAGE);
	mp->gsignal = (struct gmp_altstack){ p + PAGE, GSIGNAL_SIZE, 0 };
}

/* On the M's own thread, as it starts: the only sigaltstack it makes. */
void gmp_gsignal_install(struct m *mp)
{
	stack_t ss = { .ss_sp = mp->gsignal.sp, .ss_size = mp->gsignal.size, .ss_flags = 0 };
	if (gmp_syscall(SYS_sigaltstack, &ss, 0, 0) != 0)
		gmp_throw("mstart: cannot set the signal stack");
}

/* The kernel's on_sig_stack: an SS_AUTODISARM stack never counts. */
static bool on_armed(const struct gmp_altstack *a, uintptr_t sp)
{
	return gmp_altstack_on(a, sp) && !(a->flags & SS_AUTODISARM);
}

static void landed(int sig, void *si, void *uc, void *body);

void gmp_sigstack_enter(int sig, siginfo_t *si, void *uc, bool onstack, void (*body)(int, siginfo_t *, void *),
			void *ret)
{
	struct g *gp = gmp_signal_g(uc);
	if (gp == NULL)
		return;
	struct m *mp = gp->m;
	if (!gmp_altstack_on(&mp->gsignal, (uintptr_t)uc))
		return; /* the kernel put it elsewhere (an action rewritten without SA_ONSTACK) */
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	const struct gmp_altstack *a = &gp->altstack;
	uintptr_t top = sp - GMP_ARCH_REDZONE;
	if (onstack && a->size != 0 && !gmp_altstack_on(a, sp))
		top = (uintptr_t)a->sp + a->size;
	gmp_arch_sigframe_move(sig, si, uc, top, ret, landed, (void *)body);
}

/* rt_sigreturn's restore_altstack, for the G: the stack saved in the
 * frame comes back unless the frame is on the armed stack there is now. */
static void restore(struct g *gp, const stack_t *ss, uintptr_t frame)
{
	if (on_armed(&gp->altstack, frame))
		return;
	int mode = ss->ss_flags & ~SS_AUTODISARM;
	if (mode == SS_DISABLE)
		gp->altstack = (struct gmp_altstack){ 0 };
	else if ((mode == 0 || mode == SS_ONSTACK) && ss->ss_size >= GMP_ARCH_MINSIGSTKSZ)
		gp->altstack = (struct gmp_altstack){ ss->ss_sp, ss->ss_size, ss->ss_flags };
}

/* The kernel's view of a thread's alternate stack (__save_altstack, and
 * sigaltstack's old value but for SS_ONSTACK). */
static stack_t view(const struct gmp_altstack *a)
{
	if (a->size == 0)
		return (stack_t){ .ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE };
	return (stack_t){ .ss_sp = a->sp, .ss_size = a->size, .ss_flags = a->flags };
}

/* A moved frame, in the handler's place.  On return the frame names the
 * signal stack of the M the G is on now, which rt_sigreturn installs: the
 * G may have been switched out in the handler and resumed on another M. */
static void landed(int sig, void *si, void *ucv, void *body)
{
	ucontext_t *uc = ucv;
	struct g *gp = getg();
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	uc->uc_stack = view(&gp->altstack);
	if (gmp_altstack_on(&gp->altstack, (uintptr_t)uc) && !gmp_altstack_on(&gp->altstack, sp) && (gp->altstack.flags & SS_AUTODISARM))
		gp->altstack = (struct gmp_altstack){ 0 };
	((void (*)(int, siginfo_t *, void *))body)(sig, si, uc);
	gp = getg();
	restore(gp, &uc->uc_stack, (uintptr_t)uc);
	const struct gmp_altstack *own = &gp->m->gsignal;
	uc->uc_stack = (stack_t){ .ss_sp = own->sp, .ss_size = own->size, .ss_flags = 0 };
}

int gmp_sigaltstack(struct g *gp, const stack_t *ss, stack_t *old)
{
	struct gmp_altstack cur = gp->altstack;
	bool onit = on_armed(&cur, gmp_arch_sp());
	stack_t was = view(&cur);
	if (cur.size != 0)
		was.ss_flags = (onit ? SS_ONSTACK : 0) | (cur.flags & SS_AUTODISARM);
	if ((ss && gmp_mapkind(ss) == MAPKIND_NONE) || (old && gmp_mapkind(old) == MAPKIND_NONE))
		return EFAULT;
	if (ss) {
		stack_t n = *ss;
		int mode = n.ss_flags & ~SS_AUTODISARM;
		if (onit)
			return EPERM;
		if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
			return EINVAL;
		if (mode != SS_DISABLE && n.ss_size < GMP_ARCH_MINSIGSTKSZ)
			return ENOMEM;
		gp->altstack = mode == SS_DISABLE ? (struct gmp_altstack){ 0 }
						  : (struct gmp_altstack){ n.ss_sp, n.ss_size, n.ss_flags };
	}
	if (old)
		*old = was;
	return 0;
}
