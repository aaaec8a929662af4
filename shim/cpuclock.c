/* CPU-time clocks per G: CLOCK_THREAD_CPUTIME_ID and the clocks
 * pthread_getcpuclockid hands out.
 *
 * The kernel counts CPU time per OS thread, that is per M, across every G
 * the M runs.  A G's own time is the sum of its M's CPU time over the
 * intervals it ran, read when it switches in and out (execute).  Those are
 * two more system calls per switch, so the accounting starts only when
 * the program first asks for a thread CPU clock: a clock counts from then
 * on, which is what interval measurements need.
 *
 * pthread_getcpuclockid names a G through a slot number in a clock ID the
 * kernel would reject (clock type 3 does not exist), so IDs of ours and
 * of real threads and processes never collide. */
#include <errno.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include "cpuclock.h"
#include "lock.h"
#include "runtime.h"
#include "sys.h"

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

/* CPU time of the OS thread tid (0: the calling one). */
static int64_t m_cputime(int tid)
{
	clockid_t clk = tid ? (clockid_t)((~(unsigned)tid << 3) | 6) : CLOCK_THREAD_CPUTIME_ID;
	struct timespec ts = { 0, 0 };
	gmp_syscall(SYS_clock_gettime, clk, &ts, 0);
	return ts_ns(&ts);
}

void gmp_cpuclock_in(struct m *mp)
{
	mp->cpumark = m_cputime(0);
}

void gmp_cpuclock_out(struct m *mp, struct g *gp)
{
	if (mp->cpumark)
		__atomic_add_fetch(&gp->cputime, m_cputime(0) - mp->cpumark, __ATOMIC_RELAXED);
	mp->cpumark = 0;
}

/* The CPU time of gp so far.  A G running on another M adds that M's time
 * since it switched in, read without stopping it: a close value. */
static int64_t gcputime(struct g *gp)
{
	__atomic_store_n(&gmp_cpuclock_on, 1, __ATOMIC_RELAXED);
	int64_t t = __atomic_load_n(&gp->cputime, __ATOMIC_RELAXED);
	if (gp == getg()) {
		/* In the shim the G cannot move to another M. */
		struct m *mp = gp->m;
		int64_t now = m_cputime(0);
		if (!mp->cpumark)
			mp->cpumark = now; /* accounting starts now */
		return t + now - mp->cpumark;
	}
	struct m *mp = __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE);
	if (mp == NULL)
		return t;
	int64_t mark = __atomic_load_n(&mp->cpumark, __ATOMIC_ACQUIRE);
	if (mark && __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE) == mp) {
		int64_t now = m_cputime(mp->tid);
		if (now > mark)
			t += now - mark;
	}
	return t;
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
