/* Alternate signal stacks, per G and per M.
 *
 * The kernel keeps one alternate stack per thread, that is per M; the
 * program sets one per thread, that is per G (gsignal.c keeps it in the
 * G).  An M holds a G's stack exactly while that G runs on it (execute
 * loads it, gmp_altstack_drop takes it away as the G leaves), so a signal
 * that lands on an M never runs a handler on the stack of a G that is not
 * running there, and two Ms never run handlers on one stack.  While it
 * runs no G, an M that had held one runs SA_ONSTACK handlers (the
 * runtime's dump, the program's handlers taken on g0) on a stack of its
 * own, as Go gives each M its gsignal stack; a G without one of its own
 * runs them on its own stack, as a thread without one does under NPTL. */
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "compat/debug.h"
#include "gsignal.h"
#include "gsigstack.h"
#include "stack.h"

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

/* On the M's own thread, as it starts. */
void gmp_gsignal_install(struct m *mp)
{
	gmp_altstack_setm(mp, &mp->gsignal);
}

/* A handler that switched its G out and returns on another M: the
 * rt_sigreturn restores the alternate stack saved in the frame, which is
 * the first M's; the one this M holds for the G is the one to keep. */
void gmp_altstack_to_uc(const struct m *mp, void *ucv)
{
	ucontext_t *uc = ucv;
	const struct gmp_altstack *a = &mp->altstack;
	uc->uc_stack.ss_sp = a->sp;
	uc->uc_stack.ss_size = a->size;
	uc->uc_stack.ss_flags = a->sp == NULL && a->size == 0 ? SS_DISABLE : a->flags;
}
