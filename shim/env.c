/* Configuration from the environment, Go-style.  A malformed value gets
 * one line on stderr and the default. */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat/debug.h"
#include "env.h"
#include "preempt.h"
#include "rtsig.h"

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

/* GMP_TIMESLICE: how long a G may run before sysmon preempts it, as a
 * number with a unit (ns, us, ms, s: "10ms", "500us"); 0 turns preemption
 * off.  Preemption needs a sysmon tick to notice, so slices below 100us
 * are rounded up to it. */
static void env_timeslice(void)
{
	const char *s = getenv("GMP_TIMESLICE");
	if (s == NULL)
		return;
	static const struct {
		const char *unit;
		int64_t ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	char *end;
	long long v = strtoll(s, &end, 10);
	int64_t scale = -1;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(end, units[i].unit) == 0)
			scale = units[i].ns;
	if (end == s || v < 0 || v > 3600 || (scale < 0 && !(v == 0 && *end == '\0'))) {
		gmp_printf("gmpshim: ignoring GMP_TIMESLICE=%s: want a duration such as 10ms, 500us or 0\n", s);
		return;
	}
	int64_t ns = scale < 0 ? 0 : v * scale;
	gmp_timeslice_ns = ns > 0 && ns < 100000 ? 100000 : ns;
	gmp_wakeslice_ns = gmp_timeslice_ns / 4 < 100000 ? gmp_timeslice_ns : gmp_timeslice_ns / 4;
}

/* GMP_PREEMPTSIG: the signal the runtime takes for itself, SIGURG unless
 * the program needs that one: a number, or a name with or without SIG,
 * or RTMIN+n / RTMAX-n.  Signals the kernel or glibc reserve, and those
 * that report faults, are refused. */
static void env_preemptsig(void)
{
	const char *s = getenv("GMP_PREEMPTSIG");
	if (s == NULL)
		return;
	static const struct {
		const char *name;
		int sig;
	} names[] = { { "URG", SIGURG }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "WINCH", SIGWINCH },
		      { "PWR", SIGPWR }, { "IO", SIGIO },     { "PROF", SIGPROF }, { "VTALRM", SIGVTALRM },
		      { "XCPU", SIGXCPU }, { "SYS", SIGSYS } };
	const char *n = strncmp(s, "SIG", 3) == 0 ? s + 3 : s;
	int sig = 0;
	char *end;
	if (strncmp(n, "RTMIN+", 6) == 0 || strncmp(n, "RTMAX-", 6) == 0) {
		long k = strtol(n + 6, &end, 10);
		if (*end == '\0' && end != n + 6)
			sig = n[3] == 'I' ? SIGRTMIN + (int)k : SIGRTMAX - (int)k;
	} else if (n[0] >= '0' && n[0] <= '9') {
		long k = strtol(n, &end, 10);
		if (*end == '\0')
			sig = (int)k;
	} else {
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strcmp(n, names[i].name) == 0)
				sig = names[i].sig;
	}
	bool reserved = sig == SIGKILL || sig == SIGSTOP || sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
			sig == SIGFPE || sig == SIGTRAP || sig == SIGABRT || (sig > SIGSYS && sig < SIGRTMIN);
	if (sig < 1 || sig > SIGRTMAX || reserved) {
		gmp_printf("gmpshim: ignoring GMP_PREEMPTSIG=%s: want a signal such as SIGURG, SIGUSR2 or "
			   "SIGRTMIN+1\n", s);
		return;
	}
	gmp_preemptsig = sig;
	gmp_preemptsig_fixed = true;
}

void gmp_env_preempt(void)
{
	env_timeslice();
	env_preemptsig();
}

/* The GMPDEBUG settings that set a field of gmp_debug, 0 to hi; negate:
 * the field says that a feature is off, which name=0 turns off. */
static const struct {
	const char *name;
	int *field;
	int hi;
	bool negate;
} debug_settings[] = {
	{ "verbose", &gmp_debug.verbose, 9, false },
	{ "schedtrace", &gmp_debug.schedtrace, 3600000, false },
	{ "scheddetail", &gmp_debug.scheddetail, 1, false },
	{ "guardinstall", &gmp_debug.noguardinstall, 1, true },
	{ "procreader", &gmp_debug.noprocreader, 1, true },
	{ "drainpark", &gmp_debug.nodrainpark, 1, true },
	{ "evmask", &gmp_debug.noevmask, 1, true },
	{ "readlook", &gmp_debug.noreadlook, 1, true },
	{ "cpuclock", &gmp_debug.lazycpuclock, 1, true },
	{ "rtprio", &gmp_debug.nortprio, 1, true },
	{ "spinwait", &gmp_debug.nospinwait, 1, true },
};

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
		char what[64];
		snprintf(what, sizeof what, "GMPDEBUG %s", item);
		int v;
		if (strcmp(item, "asyncpreemptoff") == 0) {
			if (parse_int(what, eq + 1, 0, 1, &v) == 0)
				gmp_asyncpreemptoff = v;
			continue;
		}
		size_t i = 0, n = sizeof debug_settings / sizeof debug_settings[0];
		while (i < n && strcmp(item, debug_settings[i].name) != 0)
			i++;
		if (i == n)
			gmp_printf("gmpshim: ignoring unknown GMPDEBUG setting '%s'\n", item);
		else if (parse_int(what, eq + 1, 0, debug_settings[i].hi, &v) == 0)
			*debug_settings[i].field = debug_settings[i].negate ? !v : v;
	}
}
