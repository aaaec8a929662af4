/* Thread cancellation (cancel.c, compat/unwind_exit.c).
 *
 * The cancelability state, type and the request itself live in glibc's own
 * cancelhandling word in the G's TCB, in glibc 2.36's bit layout, so that
 * glibc's cancellation points inside libc (those we do not interpose; they
 * check the word through __pthread_enable_asynccancel) see the same state
 * as ours. */
#ifndef GMP_CANCEL_H
#define GMP_CANCEL_H

#include "compat/tls.h"
#include "compat/unwind_exit.h"
#include "runtime.h"


/* Enabled, requested, and not already on its way out. */
static inline bool gmp_cancel_due(uint32_t ch)
{
	return (ch & (CH_DISABLED | CH_CANCELED | CH_EXITING | CH_TERMINATED)) == CH_CANCELED;
}

static inline uint32_t gmp_cancel_word(struct g *gp)
{
	return __atomic_load_n(gmp_tls_cancelhandling(gp->tcb), __ATOMIC_SEQ_CST);
}

/* Acts on the running G's cancellation: a forced unwind to its entry. */
void gmp_cancel_act(void) __attribute__((noreturn));
int gmp_cancel(struct g *gp);
void gmp_cancel_signal(void *uc);
void gmp_cancel_parked(struct m *mp, struct g *gp);

/* pthread_cancel ended (or is ending) the wait of the cancellation point
 * gp is in, and the cancellation is still due: the wait must not start
 * again. */
static inline bool gmp_cancel_requested(struct g *gp)
{
	return gp != NULL && __atomic_load_n(&gp->cancelkick, __ATOMIC_SEQ_CST) &&
	       gmp_cancel_due(gmp_cancel_word(gp));
}

/* A POSIX cancellation point: GMP_CANCEL_POINT; at the top of an
 * interposed call acts on a request already made, and marks the G as inside
 * a point until the call returns, so that pthread_cancel ends its wait; if
 * it did, the cancellation acts on the way out (a condition wait has then
 * relocked its mutex, as POSIX requires before the cleanup handlers). */
/* Waits that are no cancellation point (a mutex, rwlock, barrier or once
 * wait, a spin lock's yield) call this at every turn of their loop, where
 * they hold nothing they must give back: an asynchronous cancellation acts
 * there, as NPTL's SIGCANCEL handler acts inside their futex wait.  (The
 * cancel woke the G; without this it would only park again.) */
static inline void gmp_cancel_async_point(void)
{
	struct g *gp = getg();
	if (__builtin_expect(gp != NULL && __atomic_load_n(&gp->cancelkick, __ATOMIC_RELAXED), 0)) {
		uint32_t ch = gmp_cancel_word(gp);
		if (gmp_cancel_due(ch) && (ch & CH_ASYNC))
			gmp_cancel_act();
	}
}

/* The scope of a cancellation point is also that of a blocking call for
 * the signals: it notes how many handlers of the program's had run on the
 * thread when the call began (gmp_sig_handled_in_call), and a handler's
 * own blocking call nests inside. */
struct gmp_cancelscope {
	struct g *gp;
	uint32_t outermark;
	bool outerrestart;
};

static inline struct gmp_cancelscope gmp_cancel_enter(void)
{
	struct g *gp = getg();
	if (gp == NULL)
		return (struct gmp_cancelscope){ NULL, 0, false };
	/* Outside any call, a handler's answer is nobody's. */
	struct gmp_cancelscope s = { gp, gp->callmark, gp->cancelpoint == 0 || gp->sigrestart };
	gp->callmark = gp->nhandled;
	gp->sigrestart = true;
	__atomic_add_fetch(&gp->cancelpoint, 1, __ATOMIC_SEQ_CST);
	if (__builtin_expect(gmp_cancel_due(gmp_cancel_word(gp)), 0))
		gmp_cancel_act();
	return s;
}

static inline void gmp_cancel_leave(struct gmp_cancelscope *s)
{
	if (s->gp == NULL)
		return;
	if (__builtin_expect(gmp_cancel_requested(s->gp), 0))
		gmp_cancel_act();
	/* Only the G itself writes its count: a plain store will do. */
	__atomic_store_n(&s->gp->cancelpoint, s->gp->cancelpoint - 1, __ATOMIC_RELEASE);
	s->gp->callmark = s->outermark;
	s->gp->sigrestart = s->outerrestart;
}

#define GMP_CANCEL_POINT                                                                           \
	struct gmp_cancelscope gmp_cancelscope_                                                    \
		__attribute__((cleanup(gmp_cancel_leave), unused)) = gmp_cancel_enter()

/* compat/unwind_exit.c */
/* On the main G once main runs (a no-op elsewhere): its unwinds end in
 * the G's exit (compat/unwind_exit.h). */
void gmp_main_adopt_record(void);

#endif
