/* pthread_exit and acted-on cancellation: a forced unwind of the thread's
 * stack, as NPTL's nptl/unwind.c does, through the system unwinder in
 * libgcc_s (loaded on first need, as glibc loads it).
 *
 * Each frame's cleanups run as the unwinder passes it: C++ destructors,
 * C cleanup attributes and pthread_cleanup_push under -fexceptions (their
 * personality routines see _UA_FORCE_UNWIND; catch (...) may catch and
 * must rethrow; abi::__forced_unwind matches).  Handlers pushed by C code
 * without -fexceptions are glibc's __pthread_unwind_buf_t records chained
 * through the TCB's cleanup_jmp_buf by glibc's own
 * __pthread_register_cancel: when the unwinder reaches the frame that set
 * up the innermost record, the stop function longjmps into it, the macro
 * runs the handler and calls __pthread_unwind_next (ours), which unwinds on
 * towards the next record.  The chain ends at the thread's entry: for a G, a
 * record set up in gmain (thread.c) whose landing finishes the exit; for
 * the main thread, the record of glibc's __libc_start_call_main, made to lead
 * to main's exit (gmp_main_adopt_record; until then main's exit finishes
 * right there in the stop function, as no frame of main's is used again).
 *
 * The bottom record of a G is a valid glibc record too: glibc's own unwind
 * (its cancellation points inside libc acting through
 * __pthread_enable_asynccancel) ends in the same landing. */
#include <dlfcn.h>
#include <stdint.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The Itanium C++ ABI's unwinding interface (libgcc's <unwind.h>, which the
 * shim's own unwind.h hides from this include path). */
typedef enum { URC_NO_REASON = 0 } _Unwind_Reason_Code;
typedef int _Unwind_Action;
#define _UA_END_OF_STACK 16
typedef uint64_t _Unwind_Exception_Class;
typedef uintptr_t _Unwind_Word;
struct _Unwind_Context;
struct _Unwind_Exception {
	_Unwind_Exception_Class exception_class;
	void (*exception_cleanup)(_Unwind_Reason_Code, struct _Unwind_Exception *);
	_Unwind_Word private_1, private_2;
} __attribute__((__aligned__));
typedef _Unwind_Reason_Code (*_Unwind_Stop_Fn)(int, _Unwind_Action, _Unwind_Exception_Class,
					       struct _Unwind_Exception *, struct _Unwind_Context *, void *);

#include "arch.h"
#include "debug.h"
#include "tls.h"
#include "unwind_exit.h"

/* Per thread, in the thread's own static TLS (every G has its own): the
 * bottom record, the exit value, and the unwinder's exception object. */
static __thread struct {
	struct _Unwind_Exception exc;
	void *entry;  /* the bottom __pthread_unwind_buf_t, NULL: none yet */
	void *retval; /* what the thread exits with once unwound */
} uw;

static void (*finish)(void *retval) __attribute__((noreturn));

void gmp_unwind_setfinish(void (*fn)(void *retval) __attribute__((noreturn)))
{
	finish = fn;
}

void gmp_unwind_entry(void *buf)
{
	uw.entry = buf;
	uw.retval = PTHREAD_CANCELED;
}

void *gmp_unwind_retval(void)
{
	return uw.retval;
}

static _Unwind_Reason_Code (*forced_unwind)(struct _Unwind_Exception *, _Unwind_Stop_Fn, void *);
static _Unwind_Word (*get_cfa)(struct _Unwind_Context *);

void gmp_unwind_load(void)
{
	if (__atomic_load_n(&get_cfa, __ATOMIC_ACQUIRE))
		return;
	void *h = dlopen("libgcc_s.so.1", RTLD_NOW);
	void *fu = h ? dlsym(h, "_Unwind_ForcedUnwind") : NULL;
	void *gc = h ? dlsym(h, "_Unwind_GetCFA") : NULL;
	if (fu == NULL || gc == NULL) {
		gmp_printf("gmpshim: libgcc_s.so.1 must be installed for pthread_cancel and pthread_exit to work\n");
		abort();
	}
	forced_unwind = (_Unwind_Reason_Code(*)(struct _Unwind_Exception *, _Unwind_Stop_Fn, void *))fu;
	__atomic_store_n(&get_cfa, (_Unwind_Word(*)(struct _Unwind_Context *))gc, __ATOMIC_RELEASE);
}

/* glibc's setjmp keeps the stack pointer and pc mangled with the thread's
 * pointer guard (PTR_MANGLE: arch.h says how, tls.h where the guard is). */
static uintptr_t ptr_mangle(uintptr_t v)
{
	return gmp_arch_ptr_mangle(v, gmp_tls_pointer_guard(gmp_arch_tp()));
}

static uintptr_t ptr_demangle(uintptr_t v)
{
	return gmp_arch_ptr_demangle(v, gmp_tls_pointer_guard(gmp_arch_tp()));
}

/* The stack pointer a record's setjmp saved. */
static uintptr_t record_sp(const __pthread_unwind_buf_t *buf)
{
	return ptr_demangle((uintptr_t)buf->__cancel_jmp_buf[0].__cancel_jmp_buf[GMP_ARCH_JB_SP]);
}

/* Where main's record now leads (gmp_main_adopt_record): main's exit, on
 * main's stack at the level of glibc's __libc_start_call_main. */
static GMP_ARCH_LONGJMP_TARGET __attribute__((noreturn, used)) void main_landing(void)
{
	finish(uw.retval);
}

/* glibc's record under main (set up by __libc_start_call_main just before
 * main) ends a forced unwind by ending main's OS thread: glibc's own
 * unwinds (its cancellation points inside libc) would take the M that runs
 * main away.  So, once main runs, the record is made to lead to main's G
 * exit instead: its saved pc (mangled, as record_sp says) is replaced, its
 * stack pointer kept, so
 * that glibc's stop function and ours stop at the same frame as before. */
void gmp_unwind_adopt_main(void)
{
	static bool done;
	if (done)
		return;
	__pthread_unwind_buf_t *b = *gmp_tls_cleanup_jmp_buf(gmp_arch_tp());
	if (b == NULL)
		return; /* main has not started yet (a constructor): next time */
	while (b->__pad[0] != NULL)
		b = b->__pad[0];
	b->__cancel_jmp_buf[0].__cancel_jmp_buf[GMP_ARCH_JB_PC] = (long)ptr_mangle((uintptr_t)main_landing);
	gmp_unwind_entry(b);
	done = true;
}

static void land(__pthread_unwind_buf_t *buf) __attribute__((noreturn));
static void land(__pthread_unwind_buf_t *buf)
{
	/* glibc's own record under main, not yet adopted (the only one with
	 * no predecessor that is not ours), or no record at all. */
	if (buf == NULL || (buf->__pad[0] == NULL && buf != uw.entry))
		finish(uw.retval);
	/* A record is a jmp_buf without the saved mask, which a savemask of
	 * 0 leaves unread (glibc's macros make the same cast). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
	longjmp((struct __jmp_buf_tag *)(void *)buf->__cancel_jmp_buf, 1);
#pragma GCC diagnostic pop
}

/* Old-style handlers (glibc's own _pthread_cleanup_push, kept in a list
 * of buffers on the stack) whose frames the unwind has left, innermost
 * first, down to those older than the record we unwind to. */
static void run_old_handlers(__pthread_unwind_buf_t *buf, uintptr_t cfa, bool all)
{
	struct _pthread_cleanup_buffer **head = gmp_tls_cleanup(gmp_arch_tp());
	struct _pthread_cleanup_buffer *cur = *head, *upto = buf ? buf->__pad[1] : NULL;
	while (cur != NULL && cur != upto && (all || (uintptr_t)cur < cfa)) {
		struct _pthread_cleanup_buffer *next = cur->__prev;
		cur->__routine(cur->__arg);
		cur = next;
		*head = cur;
	}
}

static _Unwind_Reason_Code stop(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
				struct _Unwind_Exception *exc, struct _Unwind_Context *ctx, void *param)
{
	(void)version, (void)cls, (void)exc;
	__pthread_unwind_buf_t *buf = param;
	/* The CFA the unwinder reports with a frame is its callee's: the
	 * frame's own stack pointer.  Once it reaches the record's, the frame
	 * that set the record up is next: jump there instead of unwinding it. */
	uintptr_t cfa = get_cfa(ctx);
	bool end = (actions & _UA_END_OF_STACK) || (buf && cfa >= record_sp(buf));
	run_old_handlers(buf, cfa, end);
	if (end)
		land(buf);
	return URC_NO_REASON;
}

static void not_rethrown(_Unwind_Reason_Code code, struct _Unwind_Exception *exc)
{
	(void)code, (void)exc;
	gmp_printf("gmpshim: FATAL: exception not rethrown (a thread's exit or cancellation was caught)\n");
	abort();
}

void gmp_unwind(void *buf)
{
	gmp_unwind_load();
	struct _Unwind_Exception *exc = &uw.exc;
	memset(exc, 0, sizeof *exc);
	exc->exception_class = 0; /* not catchable by type, as glibc's */
	exc->exception_cleanup = not_rethrown;
	forced_unwind(exc, stop, buf);
	/* The unwinder gave up on a frame without unwind information: the
	 * frames from here to the record are abandoned, as glibc's stop
	 * function does at the end of what it can unwind. */
	run_old_handlers(buf, 0, true);
	land(buf);
}

void gmp_exit_unwind(void *retval)
{
	void *tcb = gmp_arch_tp();
	__atomic_or_fetch(gmp_tls_cancelhandling(tcb), CH_EXITING, __ATOMIC_SEQ_CST);
	uw.retval = retval;
	gmp_unwind(*gmp_tls_cleanup_jmp_buf(tcb));
}

/* The continuation of a C cleanup handler (pthread_cleanup_pop's unwind
 * path in <pthread.h>): on towards the record before this one. */
__attribute__((visibility("default"))) void __pthread_unwind_next(__pthread_unwind_buf_t *buf)
{
	gmp_unwind(buf->__pad[0]);
}
