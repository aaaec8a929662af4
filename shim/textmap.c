/* Where code lives: the address ranges of the objects whose code a G must
 * never be stopped in asynchronously.  The shim's own code runs with
 * runtime state half-updated; libc, ld.so and libgcc_s hold internal locks
 * (malloc arenas, stdio, the loader's) and keep state in registers the
 * compiler never promised anyone; the vDSO's clock reads retry on a
 * sequence count.  The sanitizer runtimes (libasan, libtsan, ...) are
 * like libc: a G stopped holding their allocator's or thread registry's
 * lock would stall every thread that needs it, including the template
 * thread making a new M through TSan's pthread_create.  Everything else
 * is the program's code and the libraries it brought, where stopping a G
 * and resuming it later, even on another M, is invisible (Go's
 * isAsyncSafePoint, by object rather than by compiler-emitted tables).
 *
 * The table only grows: objects are appended when they appear (libgcc_s
 * is loaded lazily by glibc) and the signal handler reads it without a
 * lock. */
#include <link.h>
#include <string.h>

#include "textmap.h"

#undef p_type /* resolv.h, through runtime.h, renames it */

#define MAX_RANGES 32

struct range {
	uintptr_t lo, hi;
};

static struct range ranges[MAX_RANGES];
static int nranges;                  /* published with release order */
static struct range shim_text;

static bool unsafe_object(const char *path)
{
	static const char *const names[] = { "libc.so", "ld-linux", "libgcc_s.so", "linux-vdso", "libpthread.so",
					     "libdl.so", "librt.so", "libasan.so", "libtsan.so", "liblsan.so",
					     "libubsan.so", "libhwasan.so" };
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strncmp(base, names[i], strlen(names[i])) == 0)
			return true;
	return false;
}

static void add_range(uintptr_t lo, uintptr_t hi)
{
	int n = __atomic_load_n(&nranges, __ATOMIC_RELAXED);
	for (int i = 0; i < n; i++)
		if (ranges[i].lo == lo && ranges[i].hi == hi)
			return;
	if (n == MAX_RANGES)
		return;
	ranges[n] = (struct range){ lo, hi };
	__atomic_store_n(&nranges, n + 1, __ATOMIC_RELEASE);
}

static int scan(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	uintptr_t self = (uintptr_t)arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
		bool ours = self >= lo && self < hi;
		if (ours)
			shim_text = (struct range){ lo, hi };
		if (ours || (info->dlpi_name && unsafe_object(info->dlpi_name)))
			add_range(lo, hi);
	}
	return 0;
}

/* Serialised by the loader's lock, which dl_iterate_phdr holds. */
void gmp_textmap_refresh(void)
{
	dl_iterate_phdr(scan, (void *)(uintptr_t)gmp_textmap_refresh);
}

bool gmp_pc_in_shim(uintptr_t pc)
{
	return pc >= shim_text.lo && pc < shim_text.hi;
}

bool gmp_stack_from_shim(uintptr_t sp, uintptr_t hi)
{
	for (const uintptr_t *w = (const uintptr_t *)sp; (uintptr_t)(w + 1) <= hi; w++)
		if (gmp_pc_in_shim(*w))
			return true;
	return false;
}

bool gmp_pc_async_safe(uintptr_t pc)
{
	int n = __atomic_load_n(&nranges, __ATOMIC_ACQUIRE);
	if (n == 0)
		return false;
	for (int i = 0; i < n; i++)
		if (pc >= ranges[i].lo && pc < ranges[i].hi)
			return false;
	return true;
}
