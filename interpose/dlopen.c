#include <dlfcn.h>

#include "compat/tls.h"
#include "export.h"
#include "shim/runtime.h"
#include "shim/textmap.h"

static void *(*real_dlopen)(const char *, int);
static void *(*real_dlmopen)(Lmid_t, const char *, int);

GMP_EXPORT void *dlopen(const char *file, int mode)
{
	if (real_dlopen == NULL)
		real_dlopen = dlsym(RTLD_NEXT, "dlopen");
	if (!gmp_initialized)
		return real_dlopen(file, mode);
	struct gmp_tls_snapshot *snap = gmp_tls_dlopen_before();
	void *h = real_dlopen(file, mode);
	gmp_tls_dlopen_after(snap);
	gmp_textmap_refresh(); /* a runtime library among the new objects stays unpreemptible */
	return h;
}

GMP_EXPORT void *dlmopen(Lmid_t lmid, const char *file, int mode)
{
	if (real_dlmopen == NULL)
		real_dlmopen = dlsym(RTLD_NEXT, "dlmopen");
	if (!gmp_initialized)
		return real_dlmopen(lmid, file, mode);
	struct gmp_tls_snapshot *snap = gmp_tls_dlopen_before();
	void *h = real_dlmopen(lmid, file, mode);
	gmp_tls_dlopen_after(snap);
	gmp_textmap_refresh();
	return h;
}
