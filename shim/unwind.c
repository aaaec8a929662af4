/* libunwind, loaded privately.  libunwind.so also exports the _Unwind_*
 * functions of the C++ ABI; linked into the preloaded shim they would come
 * before libgcc_s in the global scope and take over the program's
 * exception handling.  So the library is dlopen'ed RTLD_LOCAL at start-up
 * and its unw_* entry points are looked up by their real names (with
 * the architecture's prefix, arch.h).  Debian ships no PIC archive we could link in instead.
 *
 * Caching is off: libunwind's caches take locks and block signals, and a
 * dump runs in a signal handler that may have interrupted anybody. */
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <string.h>
#include <ucontext.h>

#include "arch.h"
#include "outbuf.h"
#include "unwind.h"

#define MAX_FRAMES 64

static struct {
	int (*init_local2)(unw_cursor_t *, unw_context_t *, int);
	int (*step)(unw_cursor_t *);
	int (*get_reg)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
	int (*get_proc_name)(unw_cursor_t *, char *, size_t, unw_word_t *);
	int (*set_caching_policy)(unw_addr_space_t, unw_caching_policy_t);
	unw_addr_space_t *local_as;
	bool ok;
} U;

void gmp_unwind_init(void)
{
	if (U.ok)
		return;
	/* RTLD_DEEPBIND: libunwind's own calls (pthread_mutex_lock around its
	 * unwind tables) must reach libc, not our interposed versions, which
	 * need a G and a dump may run on g0.  The sanitizer runtimes refuse
	 * DEEPBIND; under them libunwind binds to the global scope. */
	int deep = dlsym(RTLD_DEFAULT, "__asan_init") || dlsym(RTLD_DEFAULT, "__tsan_init") ? 0 : RTLD_DEEPBIND;
	void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL | deep);
	if (h == NULL)
		return;
	U.init_local2 = (int (*)(unw_cursor_t *, unw_context_t *, int))dlsym(h, GMP_ARCH_UNW_PREFIX "init_local2");
	U.step = (int (*)(unw_cursor_t *))dlsym(h, GMP_ARCH_UNW_PREFIX "step");
	U.get_reg = (int (*)(unw_cursor_t *, unw_regnum_t, unw_word_t *))dlsym(h, GMP_ARCH_UNW_PREFIX "get_reg");
	U.get_proc_name =
		(int (*)(unw_cursor_t *, char *, size_t, unw_word_t *))dlsym(h, GMP_ARCH_UNW_PREFIX "get_proc_name");
	U.set_caching_policy =
		(int (*)(unw_addr_space_t, unw_caching_policy_t))dlsym(h, GMP_ARCH_UNW_PREFIX "set_caching_policy");
	U.local_as = (unw_addr_space_t *)dlsym(h, GMP_ARCH_UNW_PREFIX "local_addr_space");
	if (!U.init_local2 || !U.step || !U.get_reg || !U.get_proc_name || !U.set_caching_policy || !U.local_as)
		return;
	U.set_caching_policy(*U.local_as, UNW_CACHE_NONE);
	U.ok = true;
}

bool gmp_unwind_available(void)
{
	return U.ok;
}

static void frame_line(struct outbuf *ob, const char *indent, int i, unw_cursor_t *c, uintptr_t ip)
{
	char name[256];
	unw_word_t off = 0;
	ob_str(ob, indent);
	ob_char(ob, '#');
	ob_dec(ob, i);
	ob_str(ob, i < 10 ? "  " : " ");
	ob_hex(ob, ip);
	ob_str(ob, " in ");
	name[0] = '\0';
	int r = U.get_proc_name(c, name, sizeof name, &off);
	if ((r == 0 || r == -UNW_ENOMEM) && name[0]) {
		name[sizeof name - 1] = '\0';
		ob_str(ob, name);
		ob_char(ob, '+');
		ob_hex(ob, off);
	} else {
		ob_str(ob, "??");
	}
	ob_char(ob, '\n');
}

static void walk(struct outbuf *ob, unw_context_t *ctx, int flags, const char *indent)
{
	if (!U.ok) {
		ob_str(ob, indent);
		ob_str(ob, "(no backtrace: libunwind.so.8 could not be loaded)\n");
		return;
	}
	unw_cursor_t c;
	if (U.init_local2(&c, ctx, flags) != 0) {
		ob_str(ob, indent);
		ob_str(ob, "(no backtrace: libunwind cannot start here)\n");
		return;
	}
	for (int i = 0; i < MAX_FRAMES; i++) {
		unw_word_t ip = 0;
		if (U.get_reg(&c, UNW_REG_IP, &ip) != 0 || ip == 0)
			return;
		frame_line(ob, indent, i, &c, ip);
		if (U.step(&c) <= 0)
			return;
	}
	ob_str(ob, indent);
	ob_str(ob, "...more frames\n");
}

/* A parked G: the registers the caller of gmp_swap sees once it returns. */
void gmp_backtrace_saved(struct outbuf *ob, uintptr_t sp, const char *indent)
{
	ucontext_t uc;
	memset(&uc, 0, sizeof uc);
	gmp_arch_context_from_swap(&uc, sp);
	walk(ob, (unw_context_t *)&uc, 0, indent);
}

/* From a thread's registers where it entered the kernel (pc just past
 * the syscall instruction, or a return address) or where it entered a
 * system call through the runtime; bp 0 if unknown. */
void gmp_backtrace_regs(struct outbuf *ob, uintptr_t pc, uintptr_t sp, uintptr_t bp, const char *indent)
{
	ucontext_t uc;
	memset(&uc, 0, sizeof uc);
	gmp_arch_context_set_regs(&uc, pc, sp, bp);
	walk(ob, (unw_context_t *)&uc, 0, indent);
}

void gmp_backtrace_signal(struct outbuf *ob, void *uc, const char *indent)
{
	ucontext_t copy;
	memcpy(&copy, uc, sizeof copy);
	walk(ob, (unw_context_t *)&copy, UNW_INIT_SIGNAL_FRAME, indent);
}

void gmp_symbolize(struct outbuf *ob, uintptr_t pc, bool exact)
{
	char name[256];
	unw_word_t off = 0;
	unw_cursor_t c;
	ucontext_t uc;
	memset(&uc, 0, sizeof uc);
	/* Any readable stack will do: only the ip is looked up. */
	gmp_arch_context_set_pc_sp(&uc, pc, (uintptr_t)&uc);
	ob_hex(ob, pc);
	/* A return address is looked up one byte back (the call may be the
	 * last instruction of its function); a function's entry is exact. */
	if (!U.ok || U.init_local2(&c, (unw_context_t *)&uc, exact ? UNW_INIT_SIGNAL_FRAME : 0) != 0)
		return;
	if (U.get_proc_name(&c, name, sizeof name, &off) == 0) {
		name[sizeof name - 1] = '\0';
		ob_str(ob, " in ");
		ob_str(ob, name);
		ob_char(ob, '+');
		ob_hex(ob, off);
	}
}
