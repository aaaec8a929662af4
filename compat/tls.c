/* glibc 2.34+: the per-G TCB and static TLS, laid out as NPTL lays out a
 * thread's.  We ask ld.so for the sizes, let it build the DTV and copy the
 * TLS images (_dl_allocate_tls, as NPTL's allocate_stack does), and fill in
 * the few TCB fields that libc reads for the current thread.  Field
 * offsets that are not part of the ABI come from the descriptors glibc
 * exports for libthread_db, not from a copy of glibc's headers.
 *
 * "TCB" here is always the pthread_t, glibc's struct pthread.  Where the
 * thread pointer points is the architecture's TLS variant (arch.h,
 * GMP_ARCH_TCB_AT_TP):
 *   variant II (x86_64): the thread pointer is the pthread_t, whose first
 *     member is tcbhead_t (self, dtv, canary, pointer guard); the static
 *     TLS blocks lie below it:  [static TLS][struct pthread]
 *   variant I (aarch64): the thread pointer points at a 16-byte tcbhead_t
 *     (dtv, private) just above struct pthread, the static TLS blocks
 *     above that:  [struct pthread][tcbhead_t][static TLS]
 * The helpers just below are the only code that differs. */
#include <dlfcn.h>
#include <link.h>
#include <linux/futex.h>
#include <pthread.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch.h"
#include "debug.h"
#include "tls.h"

/* The header words a new TCB copies from the initial thread's. */
#define TCB_COPY_FROM GMP_ARCH_TCB_COPY_FROM
#define TCB_COPY_TO GMP_ARCH_TCB_COPY_TO

typedef union {
	size_t counter;
	struct {
		void *val;
		void *to_free;
	} pointer;
} dtv_t;

static void *(*dl_allocate_tls)(void *mem);
static void *(*dl_allocate_tls_init)(void *tcb, bool init_tls);
static void (*dl_get_tls_static_info)(size_t *size, size_t *align);

static size_t static_size, static_align, tcb_size;
static size_t off_tid;
static size_t off_list;              /* struct pthread's list_t (NPTL's stack lists) */
/* The offsets below are from the pthread_t, like the descriptors'. */
static ptrdiff_t off_rseq_cpu = -1;  /* -1: no rseq area */
static ptrdiff_t off_resp = -1;      /* __resp */
static ptrdiff_t off_robust = -1;    /* struct pthread's robust_head, -1: unknown */
static long robust_futex_offset;     /* ... and the futex_offset glibc gives it */
static ptrdiff_t off_curg;           /* the runtime's "current G" variable */
static char *main_tcb;              /* the initial thread's */
static unsigned char main_header[TCB_COPY_TO > 0 ? TCB_COPY_TO : 1];

/* Words of libc's TLS block that malloc owns (see gmp_tls_learn_malloc). */
static ptrdiff_t off_libc_tls;      /* start of libc's block */
static size_t libc_tls_size;       /* 0: not found */
static int nkeep = -1;              /* -1 not learned yet */
static ptrdiff_t keep[2];

static void *private_sym(void *handle, const char *name)
{
	void *p = dlvsym(handle, name, "GLIBC_PRIVATE");
	if (p == NULL) {
		gmp_printf("gmpshim: fatal: glibc does not export %s (need glibc 2.34 or later)\n", name);
		gmp_throw("unsupported glibc");
	}
	return p;
}

/* --- where the thread pointer points: the TLS variant --- */

#if GMP_ARCH_TCB_AT_TP
/* The thread pointer is the pthread_t; static TLS below it. */
static char *tcb_tp(char *tcb)
{
	return tcb;
}

static char *tp_tcb(char *tp)
{
	return tp;
}

static dtv_t **tcb_dtv(char *tcb)
{
	return (dtv_t **)(tcb + GMP_ARCH_TCB_OFF_DTV);
}

static void variant_init(void)
{
}

static uintptr_t place_tcb(uintptr_t top)
{
	return (top - tcb_size) & ~(uintptr_t)(static_align - 1);
}

/* glibc's static size counts the TCB too (TLS_TCB_SIZE, as NPTL's
 * allocate_stack takes it): the TLS blocks and their surplus are the rest,
 * below the TCB, and the stack starts right under them, as NPTL's does. */
static uintptr_t tls_lowest(uintptr_t tcb)
{
	return (tcb - (static_size - tcb_size)) & ~(uintptr_t)(static_align - 1);
}

/* Whether off (from the pthread_t) lies in the static TLS blocks. */
static bool in_static_tls(ptrdiff_t off)
{
	return off < 0 && (size_t)-off <= static_size;
}

/* tcbhead_t points at itself, as every NPTL thread's and every G's does. */
static bool looks_like_tcb(const char *tcb)
{
	return *(void *const *)(tcb + GMP_ARCH_TCB_OFF_SELF) == tcb;
}

static void fill_header(char *tcb)
{
	*(void **)(tcb + GMP_ARCH_TCB_OFF_TCB) = tcb;
	*(void **)(tcb + GMP_ARCH_TCB_OFF_SELF) = tcb;
}

uintptr_t gmp_tls_pointer_guard(void *tcb)
{
	return *(uintptr_t *)((char *)tcb + GMP_ARCH_TCB_OFF_POINTER_GUARD);
}
#else
/* The thread pointer is just above the pthread_t; static TLS above the
 * 16-byte tcbhead_t it points at. */
static const uintptr_t *pointer_guard;

static char *tcb_tp(char *tcb)
{
	return tcb + tcb_size;
}

static char *tp_tcb(char *tp)
{
	return tp - tcb_size;
}

static dtv_t **tcb_dtv(char *tcb)
{
	return (dtv_t **)(tcb_tp(tcb) + GMP_ARCH_TP_OFF_DTV);
}

static void variant_init(void)
{
	/* gmp_arch_tp, gmp_arch_setfs: from here on pthread_t and thread
	 * pointer are told apart. */
	gmp_arch_set_pthread_size(tcb_size);
	/* NPTL aligns struct pthread (TCB_ALIGNMENT); a multiple of 64 keeps
	 * the thread pointer just above it as aligned as the G's TCB. */
	if (static_align < 64)
		static_align = 64;
	if (tcb_size % 64)
		gmp_throw("unexpected struct pthread size");
	pointer_guard = private_sym(RTLD_DEFAULT, "__pointer_chk_guard");
}

static uintptr_t place_tcb(uintptr_t top)
{
	return ((top - static_size) & ~(uintptr_t)(static_align - 1)) - tcb_size;
}

static uintptr_t tls_lowest(uintptr_t tcb)
{
	return tcb;
}

static bool in_static_tls(ptrdiff_t off)
{
	return off >= (ptrdiff_t)tcb_size && (size_t)off < tcb_size + static_size;
}

/* No self pointer here: the list node is a node of a list (NPTL's lists
 * of stacks, or a G's own empty one). */
static bool looks_like_tcb(const char *tcb)
{
	void *const *node = (void *const *)(tcb + off_list);
	return node[0] != NULL && ((void *const *)node[0])[1] == node;
}

static void fill_header(char *tcb)
{
	(void)tcb;
}

/* glibc keeps one pointer guard for the process, in ld.so. */
uintptr_t gmp_tls_pointer_guard(void *tcb)
{
	(void)tcb;
	return *pointer_guard;
}
#endif

static void (*ctype_init)(void);

static size_t off_cancelhandling, off_cleanup_jmp_buf, off_cleanup;

/* glibc's old-style cleanup API (exported, declared by <pthread.h> only
 * for compilers without __attribute__((cleanup))). */
extern void _pthread_cleanup_push(struct _pthread_cleanup_buffer *, void (*)(void *), void *);
extern void _pthread_cleanup_pop(struct _pthread_cleanup_buffer *, int);

static void nothing(void *arg)
{
	(void)arg;
}

/* cleanup_jmp_buf is not among the fields glibc describes for
 * libthread_db; glibc's own __pthread_register_cancel stores the buffer it
 * is given there, so look for it. */
static void find_cleanup_jmp_buf(char *tp)
{
	__pthread_unwind_buf_t probe;
	memset(&probe, 0, sizeof probe);
	__pthread_register_cancel(&probe);
	size_t found = 0;
	for (size_t o = 0; o + sizeof(void *) <= tcb_size; o += sizeof(void *))
		if (*(void **)(tp + o) == &probe) {
			if (found)
				gmp_throw("unexpected struct pthread layout (cleanup_jmp_buf)");
			found = o;
		}
	__pthread_unregister_cancel(&probe);
	if (!found)
		gmp_throw("unexpected struct pthread layout (cleanup_jmp_buf)");
	off_cleanup_jmp_buf = found;

	/* And the list of the old-style handlers (_pthread_cleanup_push,
	 * which glibc's own code still uses, e.g. in pthread_cond_wait). */
	struct _pthread_cleanup_buffer old;
	_pthread_cleanup_push(&old, nothing, NULL);
	found = 0;
	for (size_t o = 0; o + sizeof(void *) <= tcb_size; o += sizeof(void *))
		if (*(void **)(tp + o) == &old && o != off_cleanup_jmp_buf)
			found = o;
	_pthread_cleanup_pop(&old, 0);
	if (!found)
		gmp_throw("unexpected struct pthread layout (cleanup)");
	off_cleanup = found;
}

struct _pthread_cleanup_buffer **gmp_tls_cleanup(void *tcb)
{
	return (struct _pthread_cleanup_buffer **)((char *)tcb + off_cleanup);
}

uint32_t *gmp_tls_cancelhandling(void *tcb)
{
	return (uint32_t *)((char *)tcb + off_cancelhandling);
}

void **gmp_tls_cleanup_jmp_buf(void *tcb)
{
	return (void **)((char *)tcb + off_cleanup_jmp_buf);
}

/* glibc's list of the calling thread's C++ thread_local destructors
 * (__cxa_thread_atexit_impl registers them per thread). */
static void (*call_tls_dtors)(void);

void gmp_tls_call_dtors(void)
{
	if (call_tls_dtors)
		call_tls_dtors();
}

/* What NPTL's start_thread sets up in a new thread before its start
 * routine: the ctype table pointers (TLS words that start out zero, read
 * by isalpha, tolower, printf's %g) and, once, where malloc's state lies. */
void gmp_tls_thread_start(void)
{
	ctype_init();
	gmp_tls_learn_malloc();
}

void gmp_tls_init(const void *curg_var)
{
	dl_allocate_tls = private_sym(RTLD_DEFAULT, "_dl_allocate_tls");
	dl_allocate_tls_init = private_sym(RTLD_DEFAULT, "_dl_allocate_tls_init");
	dl_get_tls_static_info = private_sym(RTLD_DEFAULT, "_dl_get_tls_static_info");
	ctype_init = private_sym(RTLD_DEFAULT, "__ctype_init");
	call_tls_dtors = (void (*)(void))dlvsym(RTLD_DEFAULT, "__call_tls_dtors", "GLIBC_PRIVATE");
	dl_get_tls_static_info(&static_size, &static_align);
	tcb_size = *(const uint32_t *)private_sym(RTLD_DEFAULT, "_thread_db_sizeof_pthread");
	/* libthread_db field descriptors: { size in bits, count, offset }. */
	const uint32_t *tid_desc = private_sym(RTLD_DEFAULT, "_thread_db_pthread_tid");
	off_tid = tid_desc[2];

	off_list = ((const uint32_t *)private_sym(RTLD_DEFAULT, "_thread_db_pthread_list"))[2];

	const uint32_t *ch_desc = private_sym(RTLD_DEFAULT, "_thread_db_pthread_cancelhandling");
	off_cancelhandling = ch_desc[2];
	variant_init();

	char *tp = gmp_arch_tp();
	if (*(int *)(tp + off_tid) != getpid())
		gmp_throw("unexpected struct pthread layout (tid)");
	find_cleanup_jmp_buf(tp);
	memcpy(main_header, tp, sizeof main_header);
	off_curg = (const char *)curg_var - tp;
	main_tcb = tp;

	/* glibc registered the initial thread's own robust list head (no
	 * field descriptor names it). */
	struct robust_list_head *rh;
	size_t rlen;
	if (gmp_arch_syscall6(SYS_get_robust_list, 0, (long)&rh, (long)&rlen, 0, 0, 0) == 0 && rh != NULL &&
	    (char *)rh > tp - (ptrdiff_t)tcb_size && (char *)rh < tp + (ptrdiff_t)tcb_size) {
		off_robust = (char *)rh - tp;
		robust_futex_offset = rh->futex_offset;
	}

	void **resp = dlvsym(RTLD_DEFAULT, "__resp", "GLIBC_PRIVATE");
	if (resp)
		off_resp = (char *)resp - tp;
	const ptrdiff_t *rseq_offset = dlsym(RTLD_DEFAULT, "__rseq_offset");
	if (rseq_offset)
		/* __rseq_offset is from the thread pointer; struct rseq:
		 * cpu_id_start, cpu_id. */
		off_rseq_cpu = (tcb_tp(tp) - tp) + *rseq_offset + 4;
}

size_t gmp_tls_reserve(void)
{
	return static_size + tcb_size + 2 * static_align;
}

void *gmp_tls_place(uintptr_t gaddr, uintptr_t *tls_lo)
{
	uintptr_t tcb = place_tcb(gaddr);
	*tls_lo = gmp_tls_lowest((void *)tcb);
	return (void *)tcb;
}

/* Whether tcb looks like a glibc thread descriptor. */
bool gmp_tls_is_tcb(const void *tcb)
{
	return tcb != NULL && looks_like_tcb(tcb);
}

int *gmp_tls_tidp(void *tcb)
{
	return (int *)((char *)tcb + off_tid);
}

uintptr_t gmp_tls_lowest(void *tcb)
{
	return tls_lowest((uintptr_t)tcb);
}

/* The TCB fields libc reads for the running thread. */
static void fill_tcb(char *tcb, int tid, void *curg, void *res)
{
	memcpy(tcb + TCB_COPY_FROM, main_header + TCB_COPY_FROM, TCB_COPY_TO - TCB_COPY_FROM);
	fill_header(tcb);
	*(int *)(tcb + GMP_ARCH_TCB_OFF_MULTIPLE_THREADS) = 1;
	*(int *)(tcb + off_tid) = tid;
	/* An empty list node: glibc's fork unlinks the forking thread's from
	 * NPTL's list of stacks in the child (reclaim_stacks), and a G's is in
	 * no list. */
	void **node = (void **)(tcb + off_list);
	node[0] = node[1] = node;
	/* No rseq area is registered for a G: a negative cpu_id makes
	 * sched_getcpu ask the kernel instead of trusting a stale value. */
	if (off_rseq_cpu >= 0)
		*(int32_t *)(tcb + off_rseq_cpu) = -1;
	*(void **)(tcb + off_curg) = curg;
	/* Empty, as NPTL's pthread_create leaves it (and robust_prev, the word
	 * before it, pointing at it). */
	struct robust_list_head *rh = gmp_tls_robust_head(tcb);
	if (rh) {
		rh->list.next = &rh->list;
		rh->futex_offset = robust_futex_offset;
		rh->list_op_pending = NULL;
		((void **)rh)[-1] = rh;
	}
	if (off_resp >= 0 && res)
		*(void **)(tcb + off_resp) = res;
}

struct robust_list_head *gmp_tls_robust_head(void *tcb)
{
	return off_robust == -1 ? NULL : (struct robust_list_head *)((char *)tcb + off_robust);
}

int gmp_tls_setup(void *tcbv, int tid, void *curg, void *res, int reuse)
{
	char *tcb = tcbv;
	if (!reuse) {
		if (dl_allocate_tls(tcb_tp(tcb)) == NULL)
			return EAGAIN;
	} else {
		/* As NPTL does for a cached stack: free the dynamically
		 * allocated TLS blocks, clear the DTV, and copy the TLS images
		 * again.  The DTV itself stays. */
		dtv_t *dtv = *tcb_dtv(tcb);
		for (size_t i = 0; i < dtv[-1].counter; i++)
			free(dtv[1 + i].pointer.to_free);
		memset(dtv, 0, (dtv[-1].counter + 1) * sizeof(dtv_t));
		dtv_t *keepdtv = *tcb_dtv(tcb);
		memset(tcb, 0, tcb_size);
		*tcb_dtv(tcb) = keepdtv;
		int nk = __atomic_load_n(&nkeep, __ATOMIC_ACQUIRE);
		void *mallocstate[2];
		for (int i = 0; i < nk; i++)
			mallocstate[i] = *(void **)(tcb + keep[i]);
		dl_allocate_tls_init(tcb_tp(tcb), true);
		for (int i = 0; i < nk; i++)
			*(void **)(tcb + keep[i]) = mallocstate[i];
	}
	fill_tcb(tcb, tid, curg, res);
	return 0;
}

void *gmp_tls_standalone(int tid)
{
	char *tp = dl_allocate_tls(NULL);
	if (tp == NULL)
		gmp_throw("cannot allocate a TCB for an M");
	char *tcb = tp_tcb(tp);
	fill_tcb(tcb, tid, NULL, NULL);
	return tcb;
}

void *gmp_tls_adopt_main(int *tid)
{
	char *tp = gmp_arch_tp();
	*tid = *(int *)(tp + off_tid);
	/* The kernel updates the main thread's rseq area for the OS thread
	 * that registered it; once main may run on any M that is wrong, so
	 * unregister it and let sched_getcpu fall back. */
	if (off_rseq_cpu >= 0) {
		const unsigned int *rseq_size = dlsym(RTLD_DEFAULT, "__rseq_size");
		if (rseq_size && *rseq_size > 0) {
			void *area = tp + off_rseq_cpu - 4;
			if (gmp_arch_syscall6(SYS_rseq, (long)area, 32, 1 /* RSEQ_FLAG_UNREGISTER */,
					 0x53053053 /* RSEQ_SIG */, 0, 0) != 0 &&
			    gmp_arch_syscall6(SYS_rseq, (long)area, *rseq_size, 1, 0x53053053, 0, 0) != 0)
				gmp_unsupported("cannot unregister the main thread's rseq area");
		}
		*(int32_t *)(tp + off_rseq_cpu) = -1;
	}
	return tp;
}

/* --- malloc's per-thread cache across G reuse ---
 *
 * NPTL frees a thread's tcache in __libc_thread_freeres, which glibc does
 * not export.  Re-copying libc's TLS image for a reused G would drop the
 * old tcache on the floor (about 2 KiB a thread, forever).  Instead the
 * next thread on that G inherits it, like a worker in a thread pool: the
 * cached chunks are free memory either way.  We learn which words of
 * libc's TLS block malloc owns by watching a fresh thread's first malloc. */

static int find_libc_tls(struct dl_phdr_info *info, size_t size, void *arg)
{
	if (info->dlpi_tls_data == NULL || strstr(info->dlpi_name, "/libc.so.") == NULL)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_TLS)
			libc_tls_size = info->dlpi_phdr[i].p_memsz;
	off_libc_tls = (char *)info->dlpi_tls_data - (char *)gmp_arch_tp();
	return 1;
}

void gmp_tls_learn_malloc(void)
{
	static int learning;
	if (__atomic_load_n(&nkeep, __ATOMIC_ACQUIRE) != -1 ||
	    __atomic_exchange_n(&learning, 1, __ATOMIC_ACQ_REL))
		return;
	/* A malloc that is not glibc's (a sanitizer's, jemalloc) serves libc's
	 * own calls too: glibc's cache is never filled, nothing to keep.  And
	 * TSan's must not be called yet: its state for this thread is set up
	 * by its thread start routine, which has not run. */
	if (dlsym(RTLD_DEFAULT, "malloc") != dlsym(RTLD_DEFAULT, "__libc_malloc")) {
		__atomic_store_n(&nkeep, 0, __ATOMIC_RELEASE);
		return;
	}
	dl_iterate_phdr(find_libc_tls, NULL);
	unsigned char before[1024];
	int n = 0;
	if (libc_tls_size > 0 && libc_tls_size <= sizeof before) {
		const unsigned char *blk = (unsigned char *)gmp_arch_tp() + off_libc_tls;
		memcpy(before, blk, libc_tls_size);
		void *volatile probe = malloc(1); /* volatile: the pair must not be elided */
		free(probe);
		/* GCC assumes malloc and free leave other memory alone. */
		__asm__ volatile("" ::: "memory");
		for (size_t o = 0; o + sizeof(void *) <= libc_tls_size; o += sizeof(void *)) {
			void *was, *now;
			memcpy(&was, before + o, sizeof was);
			memcpy(&now, blk + o, sizeof now);
			if (was == NULL && now != NULL) {
				if (n == 2) {
					n = 3;
					break;
				}
				keep[n++] = off_libc_tls + (ptrdiff_t)o;
			}
		}
	}
	if (gmp_debug.verbose > 1)
		gmp_printf("gmpshim: libc TLS at %+ld (%zu bytes), malloc words: %d\n", (long)off_libc_tls, libc_tls_size, n);
	if (n == 0 || n > 2) {
		gmp_unsupported("cannot locate malloc's thread cache in libc's TLS; reused threads leak it");
		n = 0;
	}
	__atomic_store_n(&nkeep, n, __ATOMIC_RELEASE);
}

/* --- static TLS of modules loaded by dlopen ---
 *
 * ld.so may place a dlopen'ed module's TLS in the static TLS surplus (it
 * must for initial-exec TLS, and it does so opportunistically for the
 * rest).  It then copies the module's TLS image into every thread NPTL
 * knows of; Gs other than main are not among them.  So after dlopen we
 * find the modules that appeared, and copy their images into every other
 * live G ourselves. */

#define MAX_OBJS 1024

struct objset {
	int n;
	uintptr_t addr[MAX_OBJS];
};

static int collect_obj(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct objset *set = arg;
	if (set->n < MAX_OBJS)
		set->addr[set->n++] = info->dlpi_addr;
	return 0;
}

struct gmp_tls_snapshot *gmp_tls_dlopen_before(void)
{
	struct objset *set = malloc(sizeof *set);
	if (set) {
		set->n = 0;
		dl_iterate_phdr(collect_obj, set);
	}
	return (struct gmp_tls_snapshot *)set;
}

struct newtls {
	size_t modid;
	ptrdiff_t off; /* TP-relative */
	const void *image;
	size_t filesz, memsz;
};

struct fixup {
	struct objset *before;
	char *tp;
	int n;
	struct newtls mods[16];
};

static int find_new_static(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct fixup *fx = arg;
	for (int i = 0; i < fx->before->n; i++)
		if (fx->before->addr[i] == info->dlpi_addr)
			return 0;
	if (info->dlpi_tls_modid == 0 || fx->n == 16)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_TLS)
			continue;
		struct newtls *m = &fx->mods[fx->n++];
		m->modid = info->dlpi_tls_modid;
		m->image = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
		m->filesz = info->dlpi_phdr[i].p_filesz;
		m->memsz = info->dlpi_phdr[i].p_memsz;
	}
	return 0;
}

struct tls_index {
	unsigned long module, offset;
};
extern void *__tls_get_addr(struct tls_index *ti);

/* Keeps the modules whose block for this thread lies in static TLS.
 * Asking __tls_get_addr also brings this thread's DTV up to date. */
static void keep_static(struct fixup *fx)
{
	int k = 0;
	for (int i = 0; i < fx->n; i++) {
		struct tls_index ti = { fx->mods[i].modid, 0 };
		ptrdiff_t off = (char *)__tls_get_addr(&ti) - fx->tp;
		if (in_static_tls(off)) {
			fx->mods[k] = fx->mods[i];
			fx->mods[k++].off = off;
		}
	}
	fx->n = k;
}

static void init_static_tls(void *tcb, void *arg)
{
	struct fixup *fx = arg;
	if ((char *)tcb == fx->tp || (char *)tcb == main_tcb)
		return; /* ld.so did these two */
	for (int i = 0; i < fx->n; i++) {
		char *dst = (char *)tcb + fx->mods[i].off;
		memcpy(dst, fx->mods[i].image, fx->mods[i].filesz);
		memset(dst + fx->mods[i].filesz, 0, fx->mods[i].memsz - fx->mods[i].filesz);
	}
}

void gmp_tls_dlopen_after(struct gmp_tls_snapshot *snap, void (*each_tcb)(void (*fn)(void *tcb, void *arg), void *arg))
{
	struct objset *before = (struct objset *)snap;
	if (before == NULL)
		return;
	struct fixup fx = { .before = before, .tp = gmp_arch_tp() };
	dl_iterate_phdr(find_new_static, &fx);
	keep_static(&fx);
	if (gmp_debug.verbose > 1)
		gmp_printf("gmpshim: dlopen: %d new modules with static TLS\n", fx.n);
	if (fx.n > 0)
		each_tcb(init_static_tls, &fx);
	free(before);
}
