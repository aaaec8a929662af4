/* Counters summed on request (gmpshim.h) and printed at exit under
 * GMP_STATS=1 (gmprun --stats).  The per-P blocks are read without
 * stopping their owners: a sum is a snapshot, possibly a few events old. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "compat/debug.h"
#include "counters.h"
#include "gmpshim.h"
#include "insight.h"
#include "outbuf.h"
#include "runtime.h"
#include "schedtrace.h"
#include "stats.h"
#include "sys.h"

#define EXPORT __attribute__((visibility("default")))

struct gmp_pcounters gmp_ctr_nop;

/* GMP_STATS_FILE, "" for stderr: taken at start-up, before the program can
 * change its environment.  A file survives programs that close stderr in
 * their own atexit handlers (coreutils' close_stdout), which run before
 * ours, and collects the reports of every process of a run. */
static char stats_file[512];

static void add(struct gmp_pcounters *sum, const struct gmp_pcounters *c)
{
#define F(x) sum->x += __atomic_load_n(&c->x, __ATOMIC_RELAXED)
	F(gcreated);
	F(switches);
	F(steals);
	F(globtakes);
	F(preempts);
	F(wakepreempts);
	F(asyncpreempts);
	F(spinpreempts);
	F(handoffs);
	F(netpollwakes);
	F(kwaits);
	F(ksleeps);
	F(drainparks);
	F(pollkeeps);
	F(keepwakes);
	for (int i = 0; i < GMP_NWAITREASON; i++) {
		F(park[i]);
		F(unpark[i]);
	}
#undef F
}

static void sum_all(struct gmp_pcounters *sum)
{
	memset(sum, 0, sizeof *sum);
	add(sum, &gmp_ctr_nop);
	for (int i = 0; i < sched.gomaxprocs; i++)
		add(sum, &allp[i].ctr);
}

EXPORT int gmpshim_read_stats(struct gmpshim_stats *out, size_t size)
{
	if (out == NULL || size < 8)
		return -1;
	struct gmp_pcounters c;
	sum_all(&c);
	struct gmpshim_stats st = {
		.size = (uint32_t)(size < sizeof st ? size : sizeof st),
		.gomaxprocs = (uint32_t)sched.gomaxprocs,
		.threads_created = c.gcreated,
		.switches = c.switches,
		.steals = c.steals,
		.global_queue_takes = c.globtakes,
		.preemptions = c.preempts,
		.syscall_handoffs = c.handoffs,
		.netpoll_wakeups = c.netpollwakes,
		.os_threads = (uint64_t)gmp_os_threads(),
		.wake_preemptions = c.wakepreempts,
		.async_preemptions = c.asyncpreempts,
		.kernel_waits = c.kwaits,
		.kernel_sleeps = c.ksleeps,
		.drained_read_parks = c.drainparks,
		.polled_kept = c.pollkeeps,
		.polled_kept_woken = c.keepwakes,
		.spin_preemptions = c.spinpreempts,
	};
	for (int i = 0; i < GMP_NWAITREASON && i < GMPSHIM_NWAIT; i++) {
		st.park[i] = c.park[i];
		st.unpark[i] = c.unpark[i];
	}
	memcpy(out, &st, st.size);
	return 0;
}

EXPORT const char *gmpshim_wait_reason_name(int reason)
{
	if (reason <= 0 || reason >= GMP_NWAITREASON)
		return NULL;
	const char *s = gmp_waitreason_string((uint32_t)reason);
	return strcmp(s, "wait") == 0 ? NULL : s;
}

static void line(struct outbuf *ob, const char *name, uint64_t v)
{
	ob_str(ob, "  ");
	ob_str(ob, name);
	for (size_t n = strlen(name); n < 22; n++)
		ob_char(ob, ' ');
	ob_udec(ob, v);
	ob_char(ob, '\n');
}

static void print_stats(void)
{
	struct gmp_pcounters c;
	sum_all(&c);
	struct outbuf ob;
	int fd = ob_open(stats_file);
	/* One write of the whole report (it fits the buffer): reports of
	 * processes exiting together do not interleave in the file. */
	ob_init(&ob, fd);
	ob_str(&ob, "gmpshim stats: gomaxprocs=");
	ob_dec(&ob, sched.gomaxprocs);
	ob_char(&ob, '\n');
	line(&ob, "threads created", c.gcreated);
	line(&ob, "OS threads", (uint64_t)gmp_os_threads());
	line(&ob, "switches", c.switches);
	line(&ob, "steals", c.steals);
	line(&ob, "global queue takes", c.globtakes);
	line(&ob, "preemptions", c.preempts);
	line(&ob, "  in program code", c.asyncpreempts);
	line(&ob, "    at a spin-wait", c.spinpreempts);
	line(&ob, "  asked for woken", c.wakepreempts);
	line(&ob, "syscall hand-offs", c.handoffs);
	line(&ob, "netpoll wake-ups", c.netpollwakes);
	line(&ob, "kernel waits", c.kwaits);
	line(&ob, "  of them sleeps", c.ksleeps);
	line(&ob, "drained-read parks", c.drainparks);
	line(&ob, "polled Gs kept", c.pollkeeps);
	line(&ob, "  woken for when due", c.keepwakes);
	ob_str(&ob, "  parks / unparks by wait reason:\n");
	for (int i = 1; i < GMP_NWAITREASON; i++) {
		if (c.park[i] == 0 && c.unpark[i] == 0)
			continue;
		ob_str(&ob, "    ");
		const char *name = gmp_waitreason_string((uint32_t)i);
		ob_str(&ob, name);
		for (size_t n = strlen(name); n < 20; n++)
			ob_char(&ob, ' ');
		ob_udec(&ob, c.park[i]);
		ob_str(&ob, " / ");
		ob_udec(&ob, c.unpark[i]);
		ob_char(&ob, '\n');
	}
	ob_flush(&ob);
	if (fd != 2)
		gmp_syscall(SYS_close, fd, 0, 0);
}

void gmp_stats_init(void)
{
	const char *f = getenv("GMP_STATS_FILE");
	if (f && *f) {
		strncpy(stats_file, f, sizeof stats_file - 1);
		stats_file[sizeof stats_file - 1] = '\0';
	}
	const char *s = getenv("GMP_STATS");
	if (s && strcmp(s, "1") == 0)
		atexit(print_stats);
	else if (s && *s && strcmp(s, "0") != 0)
		gmp_printf("gmpshim: ignoring GMP_STATS=%s: want 0 or 1\n", s);
}
