/* Per-G TCB and static TLS, built with ld.so's own TLS allocator so that
 * every G is a glibc thread as far as libc can tell. */
#ifndef GMP_TLS_H
#define GMP_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Looks up ld.so's allocator and the TCB layout; call once, on the main
 * thread, before any other function here.  curg_var: the address of the
 * runtime's initial-exec TLS variable that names the running G, which
 * every new TCB gets filled in (gmp_tls_setup). */
void gmp_tls_init(const void *curg_var);
/* Bytes the top of a G mapping needs for static TLS and the TCB. */
size_t gmp_tls_reserve(void);
/* Chooses the TCB address for a G whose struct g starts at gaddr; stores
 * the lowest address the static TLS uses in *tls_lo. */
void *gmp_tls_place(uintptr_t gaddr, uintptr_t *tls_lo);
uintptr_t gmp_tls_lowest(void *tcb);
/* The TID field glibc reads through THREAD_GETMEM(tid). */
int *gmp_tls_tidp(void *tcb);
/* The robust list head in struct pthread, which NPTL registers with the
 * kernel as every thread starts (empty in a new G's TCB); NULL if the
 * initial thread had none registered to learn its place from. */
struct robust_list_head *gmp_tls_robust_head(void *tcb);
bool gmp_tls_is_tcb(const void *tcb);
/* glibc's cancellation fields of a TCB: cancelhandling (the state, type
 * and request bits glibc's own code reads, see shim/cancel.h) and
 * cleanup_jmp_buf (the innermost __pthread_unwind_buf_t of the
 * pthread_cleanup_push chain). */
uint32_t *gmp_tls_cancelhandling(void *tcb);
/* Bits of cancelhandling (glibc 2.34+, nptl/descr.h). */
#define CH_DISABLED 0x01   /* PTHREAD_CANCEL_DISABLE */
#define CH_ASYNC 0x02      /* PTHREAD_CANCEL_ASYNCHRONOUS */
#define CH_CANCELED 0x08   /* pthread_cancel was called */
#define CH_EXITING 0x10    /* unwinding or exiting: no more cancellation */
#define CH_TERMINATED 0x20 /* the thread is over */
/* The pointer guard setjmp mangles saved pointers with (tcbhead_t). */
uintptr_t gmp_tls_pointer_guard(void *tcb);
void **gmp_tls_cleanup_jmp_buf(void *tcb);
/* ... and cleanup, the list of old-style handlers (_pthread_cleanup_push). */
struct _pthread_cleanup_buffer;
struct _pthread_cleanup_buffer **gmp_tls_cleanup(void *tcb);
/* Initialises (fresh) or re-initialises (reused) a TCB and its TLS for a
 * new thread with this TID, whose curg variable will hold curg and whose
 * resolver state is at res (zeroed, or NULL).  Returns 0 or an errno
 * value.  G context only: it uses the caller's malloc. */
int gmp_tls_setup(void *tcb, int tid, void *curg, void *res, int reuse);
/* A TCB with TLS but no G, for an M to idle on. */
void *gmp_tls_standalone(int tid);
/* The running initial thread's TCB (and its TID), made fit to be the main
 * G's on any M. */
void *gmp_tls_adopt_main(int *tid);
/* Learns where malloc keeps its thread cache; call on a fresh G. */
void gmp_tls_learn_malloc(void);
void gmp_tls_thread_start(void);
/* Runs the calling thread's C++ thread_local destructors, as NPTL does
 * first at a thread's exit. */
void gmp_tls_call_dtors(void);

/* Around a dlopen: copy the static TLS images of modules it loaded into
 * every live G (ld.so only knows NPTL's threads). */
struct gmp_tls_snapshot;
struct gmp_tls_snapshot *gmp_tls_dlopen_before(void);
/* each_tcb calls fn for every live thread's TCB. */
void gmp_tls_dlopen_after(struct gmp_tls_snapshot *snap, void (*each_tcb)(void (*fn)(void *tcb, void *arg), void *arg));

#endif
