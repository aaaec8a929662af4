/* gmprun: run a command with libgmpshim.so preloaded.
 *
 *   gmprun [-p N] [--stats] [--] cmd [args...]
 *
 * --stats sets GMP_STATS=1: the shim prints its counters (gmpshim.h) to
 * stderr when the program exits.
 *
 * The library is looked up next to this executable (the build tree) and then
 * in ../lib/ (an installed tree), so LD_PRELOAD always gets an absolute path
 * and keeps working after the command changes directory.  A program built
 * with -fsanitize=address/thread/leak gets its sanitizer runtime preloaded
 * ahead of the shim (sanruntime.c says why). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sanruntime.h"

static void usage(void)
{
	fprintf(stderr, "usage: gmprun [-p N] [--stats] [--] cmd [args...]\n");
	exit(2);
}

static int find_library(char *out, size_t outsz)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0)
		return -1;
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	const char *candidates[] = { "/libgmpshim.so", "/../lib/libgmpshim.so",
				     "/../lib/" GMP_MULTIARCH "/libgmpshim.so" };
	for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
		snprintf(out, outsz, "%s%s", self, candidates[i]);
		if (access(out, R_OK) == 0)
			return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	int i = 1;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
			char *end;
			long n = strtol(argv[++i], &end, 10);
			if (*end || n < 1 || n > 1024) {
				fprintf(stderr, "gmprun: -p wants a number of Ps from 1 to 1024, not '%s'\n", argv[i]);
				return 2;
			}
			setenv("GMP_MAXPROCS", argv[i], 1);
		} else if (strcmp(argv[i], "--stats") == 0) {
			setenv("GMP_STATS", "1", 1);
		} else if (argv[i][0] == '-') {
			usage();
		} else {
			break;
		}
	}
	if (i >= argc)
		usage();

	char lib[PATH_MAX];
	if (find_library(lib, sizeof lib) != 0) {
		fprintf(stderr, "gmprun: cannot find libgmpshim.so next to %s\n", argv[0]);
		return 127;
	}
	/* Keep whatever the user already preloads, after us; a sanitizer
	 * runtime the program needs goes first of all. */
	char san[256];
	const char *first = gmp_sanitizer_runtime(argv[i], san, sizeof san) == 0 ? san : NULL;
	if (first == NULL) /* a shim built with -Dsanitize_shim=address */
		first = gmp_sanitizer_runtime(lib, san, sizeof san) == 0 ? san : NULL;
	/* The shim's fork child starts its template thread at once, which TSan
	 * refuses after a fork of a threaded process unless told otherwise
	 * (natively only a child that makes threads meets that). */
	if (first && strncmp(first, "libtsan.so", 10) == 0) {
		const char *o = getenv("TSAN_OPTIONS");
		if (o == NULL || strstr(o, "die_after_fork") == NULL) {
			size_t n = (o ? strlen(o) : 0) + 32;
			char *opts = malloc(n);
			if (!opts)
				return 127;
			snprintf(opts, n, "%s%sdie_after_fork=0", o ? o : "", o && *o ? ":" : "");
			setenv("TSAN_OPTIONS", opts, 1);
		}
	}
	const char *old = getenv("LD_PRELOAD");
	size_t len = strlen(lib) + (old ? strlen(old) : 0) + (first ? strlen(first) : 0) + 3;
	char *all = malloc(len);
	if (!all)
		return 127;
	snprintf(all, len, "%s%s%s%s%s", first ? first : "", first ? ":" : "", lib, old && *old ? ":" : "",
		 old && *old ? old : "");
	setenv("LD_PRELOAD", all, 1);
	execvp(argv[i], argv + i);
	fprintf(stderr, "gmprun: cannot run '%s': %s\n", argv[i], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
