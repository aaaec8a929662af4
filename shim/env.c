/* Configuration from the environment, Go-style.  A malformed value gets
 * one line on stderr and the default. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static int parse_int(const char *name, const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
		gmp_printf("gmpshim: ignoring %s=%s: want a whole number from %d to %d\n", name, s, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int gmp_env_maxprocs(void)
{
	static const char *const names[] = { "GMP_MAXPROCS", "GOMAXPROCS" };
	for (int i = 0; i < 2; i++) {
		const char *s = getenv(names[i]);
		int n;
		if (s && parse_int(names[i], s, 1, 1024, &n) == 0)
			return n;
	}
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	return 1;
}

/* GMPDEBUG=name=value,name=value */
void gmp_env_debug(void)
{
	const char *s = getenv("GMPDEBUG");
	if (s == NULL)
		return;
	char buf[256];
	strncpy(buf, s, sizeof buf - 1);
	buf[sizeof buf - 1] = '\0';
	char *save = NULL;
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (eq == NULL) {
			gmp_printf("gmpshim: ignoring GMPDEBUG item '%s': want name=value\n", item);
			continue;
		}
		*eq = '\0';
		int v;
		if (strcmp(item, "verbose") == 0) {
			if (parse_int("GMPDEBUG verbose", eq + 1, 0, 9, &v) == 0)
				gmp_debug.verbose = v;
		} else {
			gmp_printf("gmpshim: ignoring unknown GMPDEBUG setting '%s'\n", item);
		}
	}
}
