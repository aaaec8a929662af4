/* Which sanitizer runtime a program was linked against, for gmprun.
 *
 * A program built with -fsanitize=address (or thread, or leak) names the
 * runtime in its DT_NEEDED entries, and the runtime insists on being the
 * first library in the search order: ASan refuses to start otherwise, and
 * its interceptors must reach the shim's pthread functions as "the next"
 * definition.  LD_PRELOAD puts the shim before every DT_NEEDED library, so
 * gmprun preloads the runtime's soname ahead of the shim; ld.so looks a
 * name without a slash up as it would the DT_NEEDED entry itself.
 *
 * Only the executable is read (ELF64, this machine's byte order), with
 * plain reads: a script, a static program or anything unreadable simply
 * has no sanitizer runtime. */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sanruntime.h"

static const char *const runtimes[] = { "libasan.so", "libtsan.so", "liblsan.so", "libhwasan.so" };

static int pread_all(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/* File offset of virtual address va, through the PT_LOAD that holds it. */
static long va_to_off(const Elf64_Phdr *ph, int n, Elf64_Addr va)
{
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && va >= ph[i].p_vaddr && va < ph[i].p_vaddr + ph[i].p_filesz)
			return (long)(ph[i].p_offset + (va - ph[i].p_vaddr));
	return -1;
}

static int runtime_in(int fd, char *out, size_t outsz)
{
	Elf64_Ehdr eh;
	if (pread_all(fd, &eh, sizeof eh, 0) != 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 256)
		return -1;
	Elf64_Phdr ph[256];
	if (pread_all(fd, ph, eh.e_phnum * sizeof *ph, (off_t)eh.e_phoff) != 0)
		return -1;
	const Elf64_Phdr *dynph = NULL;
	for (int i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dynph = &ph[i];
	if (dynph == NULL || dynph->p_filesz > 64 * 1024)
		return -1;
	size_t ndyn = dynph->p_filesz / sizeof(Elf64_Dyn);
	Elf64_Dyn *dyn = malloc(dynph->p_filesz);
	if (dyn == NULL || pread_all(fd, dyn, ndyn * sizeof *dyn, (off_t)dynph->p_offset) != 0) {
		free(dyn);
		return -1;
	}
	long stroff = -1;
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_STRTAB)
			stroff = va_to_off(ph, eh.e_phnum, dyn[i].d_un.d_ptr);
	int found = -1;
	for (size_t i = 0; stroff >= 0 && found && i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag != DT_NEEDED)
			continue;
		char name[256] = { 0 };
		if (pread(fd, name, sizeof name - 1, stroff + (off_t)dyn[i].d_un.d_val) <= 0)
			continue;
		for (size_t r = 0; r < sizeof runtimes / sizeof *runtimes; r++)
			if (strncmp(name, runtimes[r], strlen(runtimes[r])) == 0 && strlen(name) < outsz) {
				strcpy(out, name);
				found = 0;
			}
	}
	free(dyn);
	return found;
}

/* The path execvp would run for cmd, into path. */
static int resolve(const char *cmd, char *path, size_t pathsz)
{
	if (strchr(cmd, '/'))
		return snprintf(path, pathsz, "%s", cmd) < (int)pathsz ? 0 : -1;
	const char *dirs = getenv("PATH");
	if (dirs == NULL)
		dirs = "/bin:/usr/bin";
	while (*dirs) {
		size_t len = strcspn(dirs, ":");
		if (snprintf(path, pathsz, "%.*s%s%s", (int)len, dirs, len ? "/" : "", cmd) < (int)pathsz &&
		    access(path, X_OK) == 0)
			return 0;
		dirs += len + (dirs[len] == ':');
	}
	return -1;
}

int gmp_sanitizer_runtime(const char *cmd, char *out, size_t outsz)
{
	char path[PATH_MAX];
	if (resolve(cmd, path, sizeof path) != 0)
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int r = runtime_in(fd, out, outsz);
	close(fd);
	return r;
}
