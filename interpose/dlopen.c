#include <dlfcn.h>
#include <link.h>

#include "compat/realsym.h"
#include "compat/tls.h"
#include "export.h"
#include "shim/preempt.h"
#include "shim/registry.h"
#include "shim/runtime.h"
#include "shim/textmap.h"

GMP_EXPORT void *dlopen(const char *file, int mode)
{
	if (!gmp_initialized)
		return GMP_REAL(dlopen)(file, mode);
	struct gmp_tls_snapshot *snap = gmp_tls_dlopen_before();
	gmp_preemptoff_enter();
	void *h = GMP_REAL(dlopen)(file, mode);
	gmp_preemptoff_leave();
	gmp_tls_dlopen_after(snap, gmp_registry_foreach_tcb);
	gmp_textmap_refresh(); /* a runtime library among the new objects stays unpreemptible */
	return h;
}

GMP_EXPORT void *dlmopen(Lmid_t lmid, const char *file, int mode)
{
	if (!gmp_initialized)
		return GMP_REAL(dlmopen)(lmid, file, mode);
	struct gmp_tls_snapshot *snap = gmp_tls_dlopen_before();
	gmp_preemptoff_enter();
	void *h = GMP_REAL(dlmopen)(lmid, file, mode);
	gmp_preemptoff_leave();
	gmp_tls_dlopen_after(snap, gmp_registry_foreach_tcb);
	gmp_textmap_refresh();
	return h;
}

/* Destructors run under ld.so's lock (shim/preempt.h). */
GMP_EXPORT int dlclose(void *h)
{
	gmp_preemptoff_enter();
	int r = GMP_REAL(dlclose)(h);
	gmp_preemptoff_leave();
	return r;
}

/* So do the callbacks. */
GMP_EXPORT int dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg)
{
	gmp_preemptoff_enter();
	int r = GMP_REAL(dl_iterate_phdr)(cb, arg);
	gmp_preemptoff_leave();
	return r;
}
