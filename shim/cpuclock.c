/* CPU-time clocks per G: CLOCK_THREAD_CPUTIME_ID and the clocks
 * pthread_getcpuclockid hands out.
 *
 * The kernel counts CPU time per OS thread, that is per M, across every G
 * the M runs, and reading it is a system call (no vDSO for thread clocks).
 * So a switch reads only the wall clock (vDSO): each G is charged the wall
 * time it ran, and the M's CPU clock is read once per epoch, which ends
 * when a G reads its own clock or after EPOCH_NS of the M's waking time.
 * The epoch's rate, the M's CPU time over its waking wall time, converts
 * the wall time each G ran in it: the kernel's CPU time shared among the
 * Gs the M ran, in proportion to how long each ran.  Time the M slept is
 * left out of the epoch: idle (stopm, a netpoll wait) and calls that
 * lasted over LONGCALL_NS between entersyscall and exitsyscall (a blocked
 * read; its few microseconds of kernel CPU go to the epoch as a whole).
 * A G that reads its own clock ends its M's epoch first, so it reads the
 * kernel's count for the M's time since the last one, shared exactly as
 * run; time it ran on other Ms in their still open epochs is converted at
 * their last known rate.  A G never referenced by an M: a G's pending
 * wall names the M and epoch (Ms are never freed, Gs are).
 *
 * Accounting runs from start-up, as a thread's clock counts from its
 * creation natively: a program that reads a thread's clock only once, at
 * its end (a per-thread CPU report, a JVM's thread CPU time), would read
 * nearly nothing if the switches before its first read went uncounted.
 * It costs a vDSO clock read per switch (one G's end is the next one's
 * start) and, per M, one kernel clock read per EPOCH_NS of waking time.
 * GMPDEBUG=cpuclock=0 starts it only when the program first asks for a
 * thread CPU clock (the clocks then count from there, enough for
 * interval measurements).
 *
 * pthread_getcpuclockid names a G through a slot number in a clock ID the
 * kernel would reject (clock type 3 does not exist), so IDs of ours and
 * of real threads and processes never collide. */
#include <errno.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>

#include "compat/debug.h"
#include "cpuclock.h"
#include "lock.h"
#include "runtime.h"
#include "sys.h"
#include "timer.h"

int gmp_cpuclock_on;

#define CPUCLOCK_OURS 7  /* per-thread flag (4) with the unused type 3 */
#define SLOT_CHUNK 4096
#define SLOT_CHUNKS 256

/* slots[i / SLOT_CHUNK][i % SLOT_CHUNK]: the G of clock slot i, or NULL.
 * Slot 0 is never used, so that a G's clockslot 0 means none. */
static struct g **slots[SLOT_CHUNKS];
static uint32_t nslots = 1;
static uint32_t freehead;        /* a freed slot, 0: none; chained through freenext */
static uint32_t *freenext[SLOT_CHUNKS];
static struct mutex slotlock;

static int64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

int64_t gmp_thread_cputime(int tid)
{
	clockid_t clk = tid ? (clockid_t)((~(unsigned)tid << 3) | 6) : CLOCK_THREAD_CPUTIME_ID;
	struct timespec ts = { 0, 0 };
	gmp_syscall(SYS_clock_gettime, clk, &ts, 0);
	return ts_ns(&ts);
}

#define EPOCH_NS 2000000LL  /* the M's CPU clock read at most this often per M */
#define RATE_ONE 65536      /* rates are CPU ns per wall ns in 16.16 */
#define NRATES 8            /* closed epochs whose rate an M keeps */

/* The rate of mp's epoch e: exact once it closed (and is among the last
 * NRATES), else the M's last known rate. */
static uint32_t rate_of(struct m *mp, uint64_t e)
{
	uint64_t cur = __atomic_load_n(&mp->epoch, __ATOMIC_ACQUIRE);
	if (e < cur && cur - e <= NRATES)
		return __atomic_load_n(&mp->rates[e % NRATES], __ATOMIC_RELAXED);
	return cur ? __atomic_load_n(&mp->rates[(cur - 1) % NRATES], __ATOMIC_RELAXED) : RATE_ONE;
}

static int64_t at_rate(int64_t wall, uint32_t rate)
{
	return (int64_t)(((__int128)wall * rate) >> 16);
}

/* gp's wall time of an earlier epoch becomes CPU time. */
static void settle(struct g *gp)
{
	if (gp->cpuwall == 0)
		return;
	__atomic_add_fetch(&gp->cputime, at_rate(gp->cpuwall, rate_of(gp->cpum, gp->cpuepoch)), __ATOMIC_RELAXED);
	gp->cpuwall = 0;
}

/* gp ran wall ns on mp in its open epoch. */
static void charge(struct m *mp, struct g *gp, int64_t wall)
{
	if (gp->cpum != mp || gp->cpuepoch != mp->epoch) {
		settle(gp);
		gp->cpum = mp;
		gp->cpuepoch = mp->epoch;
	}
	gp->cpuwall += wall;
}

/* Ends mp's epoch: its rate from the kernel's CPU clock.  On mp. */
static void close_epoch(struct m *mp, int64_t now)
{
	int64_t cpu = gmp_thread_cputime(0);
	int64_t wall = now - mp->wallstart - mp->wallpaused;
	int64_t used = cpu - mp->cpustart;
	uint32_t rate = RATE_ONE;
	if (wall > 0 && used < wall)
		rate = used > 0 ? (uint32_t)((used << 16) / wall) : 0;
	__atomic_store_n(&mp->rates[mp->epoch % NRATES], rate, __ATOMIC_RELAXED);
	__atomic_store_n(&mp->epoch, mp->epoch + 1, __ATOMIC_RELEASE);
	mp->cpustart = cpu;
	mp->wallstart = now;
	mp->wallpaused = 0;
}

/* mp's running G is counted from now on (its M's epoch opened if none). */
static void count_from(struct m *mp, int64_t now)
{
	mp->cpuout = 0;
	if (mp->cpustart == 0) {
		mp->cpustart = gmp_thread_cputime(0);
		mp->wallstart = now;
		mp->wallpaused = 0;
	}
	__atomic_store_n(&mp->cpuin, now, __ATOMIC_RELEASE);
}

void gmp_cpuclock_in(struct m *mp)
{
	/* The switch's one clock read: the last G's end is this one's start
	 * (the scheduler's time between goes to it, as a kernel charges its
	 * switch to the threads), unless the M slept in between. */
	count_from(mp, mp->cpuout ? mp->cpuout : gmp_nanotime());
}

void gmp_cpuclock_start(struct m *mp, struct g *gp)
{
	if (gmp_debug.lazycpuclock)
		return;
	__atomic_store_n(&gmp_cpuclock_on, 1, __ATOMIC_RELAXED);
	count_from(mp, gmp_nanotime());
	gp->cputime = mp->cpustart; /* what the kernel counted before us */
}

void cpuclock_fork(enum gmp_fork_phase phase)
{
	struct g *gp = getg();
	if (phase != FORK_CHILD || gp == NULL)
		return;
	/* The child's thread is a new one: its clock starts again, as
	 * NPTL's does, and so does the kernel's count for its M. */
	struct m *mp = gp->m;
	gp->cputime = gp->cpuwall = gp->cpuseen = 0;
	gp->cpum = NULL;
	mp->cpustart = 0;
	mp->cpuout = 0;
	if (mp->cpuin)
		count_from(mp, gmp_nanotime());
}

void gmp_cpuclock_out(struct m *mp, struct g *gp)
{
	if (mp->cpuin == 0)
		return;
	int64_t now = gmp_nanotime();
	charge(mp, gp, now - mp->cpuin);
	__atomic_store_n(&mp->cpuin, 0, __ATOMIC_RELEASE);
	mp->cpuout = now;
	if (now - mp->wallstart - mp->wallpaused > EPOCH_NS)
		close_epoch(mp, now);
}

void gmp_cpuclock_slept(struct m *mp, int64_t min_ns)
{
	int64_t d = gmp_nanotime() - mp->pausedsince;
	mp->pausedsince = 0;
	if (d < min_ns)
		return;
	mp->wallpaused += d;
	if (mp->cpuin)
		__atomic_store_n(&mp->cpuin, mp->cpuin + d, __ATOMIC_RELEASE);
}

/* The CPU time of gp so far.  Its own: exact up to its runs on other Ms in
 * epochs still open there.  Another G's, read without stopping it: what
 * it ran at the rates known so far. */
static int64_t gcputime_now(struct g *gp)
{
	if (gp == getg()) {
		/* In the shim the G cannot move to another M. */
		struct m *mp = gp->m;
		if (mp->cpuin == 0) {
			count_from(mp, gmp_nanotime()); /* accounting starts now */
		} else {
			int64_t now = gmp_nanotime();
			charge(mp, gp, now - mp->cpuin);
			mp->cpuin = now;
			close_epoch(mp, now);
		}
		settle(gp);
		return __atomic_load_n(&gp->cputime, __ATOMIC_RELAXED);
	}
	int64_t t = __atomic_load_n(&gp->cputime, __ATOMIC_RELAXED);
	struct m *pm = __atomic_load_n(&gp->cpum, __ATOMIC_ACQUIRE);
	if (pm)
		t += at_rate(__atomic_load_n(&gp->cpuwall, __ATOMIC_RELAXED),
			     rate_of(pm, __atomic_load_n(&gp->cpuepoch, __ATOMIC_RELAXED)));
	struct m *mp = __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE);
	int64_t in = mp ? __atomic_load_n(&mp->cpuin, __ATOMIC_ACQUIRE) : 0;
	if (in && __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE) == gp) {
		int64_t now = gmp_nanotime();
		if (now > in)
			t += at_rate(now - in, rate_of(mp, __atomic_load_n(&mp->epoch, __ATOMIC_ACQUIRE)));
	}
	return t;
}

/* The CPU time of gp so far.  Its own: exact up to its runs on other Ms in
 * epochs still open there.  Another G's, read without stopping it: what
 * it ran at the rates known so far.  An estimate a later exact rate
 * undercuts is held until the clock passes it, as a clock never goes back. */
static int64_t gcputime(struct g *gp)
{
	__atomic_store_n(&gmp_cpuclock_on, 1, __ATOMIC_RELAXED);
	int64_t t = gcputime_now(gp);
	int64_t seen = __atomic_load_n(&gp->cpuseen, __ATOMIC_RELAXED);
	while (t > seen && !__atomic_compare_exchange_n(&gp->cpuseen, &seen, t, 0, __ATOMIC_RELAXED,
							 __ATOMIC_RELAXED))
		;
	return t > seen ? t : seen;
}

static struct g **slotp(uint32_t i)
{
	struct g **chunk = __atomic_load_n(&slots[i / SLOT_CHUNK], __ATOMIC_ACQUIRE);
	return chunk ? &chunk[i % SLOT_CHUNK] : NULL;
}

/* A slot for gp, under slotlock; 0 when all are taken. */
static uint32_t slot_alloc(struct g *gp)
{
	uint32_t i = freehead;
	if (i) {
		freehead = freenext[i / SLOT_CHUNK][i % SLOT_CHUNK];
	} else {
		if (nslots == SLOT_CHUNK * SLOT_CHUNKS)
			return 0;
		i = nslots;
		if (slots[i / SLOT_CHUNK] == NULL) {
			void *c = mmap(NULL, SLOT_CHUNK * (sizeof(struct g *) + sizeof(uint32_t)),
				       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (c == MAP_FAILED)
				return 0;
			freenext[i / SLOT_CHUNK] = (uint32_t *)((struct g **)c + SLOT_CHUNK);
			__atomic_store_n(&slots[i / SLOT_CHUNK], (struct g **)c, __ATOMIC_RELEASE);
		}
		nslots++;
	}
	*slotp(i) = gp;
	return i;
}

/* pthread_getcpuclockid for a live G. */
int gmp_cpuclock_id(struct g *gp, clockid_t *clk)
{
	lock(&slotlock);
	if (gp->clockslot == 0)
		gp->clockslot = slot_alloc(gp);
	uint32_t i = gp->clockslot;
	unlock(&slotlock);
	if (i == 0)
		return ENOMEM; /* a million threads with clocks at once */
	__atomic_store_n(&gmp_cpuclock_on, 1, __ATOMIC_RELAXED);
	*clk = (clockid_t)((~i << 3) | CPUCLOCK_OURS);
	return 0;
}

/* A G exits: its clock ID stops working, as an exited thread's does. */
void gmp_cpuclock_exit(struct g *gp)
{
	if (gp->clockslot == 0)
		return;
	lock(&slotlock);
	uint32_t i = gp->clockslot;
	*slotp(i) = NULL;
	freenext[i / SLOT_CHUNK][i % SLOT_CHUNK] = freehead;
	freehead = i;
	gp->clockslot = 0;
	unlock(&slotlock);
}

bool gmp_cpuclock_ours(clockid_t clk)
{
	return clk == CLOCK_THREAD_CPUTIME_ID ? gmp_initialized && getg() != NULL
					      : clk < 0 && (clk & 7) == CPUCLOCK_OURS;
}

void gmp_cpuclock_rusage(struct timeval *utime, struct timeval *stime)
{
	int64_t u = utime->tv_sec * 1000000LL + utime->tv_usec, s = stime->tv_sec * 1000000LL + stime->tv_usec;
	int64_t t = gcputime(getg()) / 1000, gu = u + s > 0 ? (int64_t)((__int128)t * u / (u + s)) : t;
	*utime = (struct timeval){ gu / 1000000, gu % 1000000 };
	*stime = (struct timeval){ (t - gu) / 1000000, (t - gu) % 1000000 };
}

/* clock_gettime for a clock gmp_cpuclock_ours accepted; an errno. */
int gmp_cpuclock_read(clockid_t clk, struct timespec *ts)
{
	int64_t t;
	if (clk == CLOCK_THREAD_CPUTIME_ID) {
		t = gcputime(getg());
	} else {
		uint32_t i = ~(uint32_t)clk >> 3;
		lock(&slotlock);
		struct g **sp = i < nslots ? slotp(i) : NULL;
		struct g *gp = sp ? *sp : NULL;
		t = gp ? gcputime(gp) : 0;
		unlock(&slotlock);
		if (gp == NULL)
			return EINVAL;
	}
	ts->tv_sec = t / 1000000000LL;
	ts->tv_nsec = t % 1000000000LL;
	return 0;
}
