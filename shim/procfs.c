/* The runtime's looks at /proc: sysmon's at what an M's thread is doing
 * (rescue.c), the dump's, and the maps scan on kernels without
 * PROCMAP_QUERY (mapkind.c).  Each opens a file, and open() hands out the
 * lowest free number: the one a daemon that has just closed every fd
 * expects its own next open to get.  A look at that moment took it, and
 * the program's /dev/null landed on 4 instead of 3 (about 1 run in 30 of
 * tests/integration/close_all_fds).
 *
 * So the looks run on a thread of the runtime's whose fd table is its own:
 * it unshares the table and closes everything in its copy at once, so that
 * it holds no reference to the program's files, and then only ever opens
 * /proc files there.  It is an NPTL thread, so glibc's set*id broadcast
 * reaches it: it keeps the process's credentials, which /proc's access
 * checks use.  The first look asks the template thread to make it
 * (sysmon must not call into NPTL, which mallocs: it may be the one to
 * rescue a G holding a malloc lock).  Until it is up the looks wait
 * (-EAGAIN: sysmon looks again at its next round), so that not even the
 * first of them can meet a daemon's closing of every fd.  Where unshare is
 * refused (seccomp profiles of container runtimes) they run on the caller,
 * as before. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>

#include "compat/debug.h"
#include "gsignal.h"
#include "lock.h"
#include "mstart.h"
#include "procfs.h"
#include "runtime.h"
#include "sys.h"
#include "timer.h"

enum { READER_NONE, READER_STARTING, READER_UP, READER_NO };
enum { TURN_IDLE, TURN_POSTED, TURN_DONE };
#define READER_WAIT_NS 20000000LL

/* Set on the thread making a look: a fault dump there looks itself. */
static __thread int inlook;

/* The reader keeps the syscall files it read open, in its own table, and
 * reads them again from the start: sysmon reads an M's at preemptions,
 * and the open and close around each read were most of a look's cost
 * (cpuclock_share beside two busy processes: ~2,000 looks a second).
 * Only Ms' threads are read so, and Ms are never freed: a few dozen. */
#define KEPT_MAX 64
static struct {
	int tid; /* 0: free */
	int fd;
} kept[KEPT_MAX];
static __thread bool onreader;

static struct {
	struct mutex lock; /* one look at a time, and the reader's start */
	uint32_t reader;   /* READER_* */
	uint32_t turn;     /* TURN_*: the caller posts, the reader answers */
	int64_t asked;     /* when the template thread was asked for the reader */
	long (*fn)(void *);
	void *arg;
	long result;
} rd;

static void *reader(void *unused)
{
	(void)unused;
	gmp_block_signals();
	bool ok = gmp_syscall(SYS_unshare, CLONE_FILES, 0, 0) == 0 &&
		  gmp_syscall(SYS_close_range, 0, ~0u, 0) == 0;
	__atomic_store_n(&rd.reader, ok ? READER_UP : READER_NO, __ATOMIC_RELEASE);
	if (!ok)
		return NULL; /* a copied table goes with the thread */
	onreader = true;
	for (;;) {
		uint32_t t;
		while ((t = __atomic_load_n(&rd.turn, __ATOMIC_ACQUIRE)) != TURN_POSTED)
			gmp_futex_wait_kernel(&rd.turn, t, -1);
		rd.result = rd.fn(rd.arg);
		__atomic_store_n(&rd.turn, TURN_DONE, __ATOMIC_RELEASE);
		gmp_futex_wake_kernel(&rd.turn, 1);
	}
}

/* On the template thread. */
static void reader_made(bool started)
{
	if (!started)
		__atomic_store_n(&rd.reader, READER_NO, __ATOMIC_RELEASE);
}

/* rd.lock held: whether looks must wait for the reader (-EAGAIN); *ask:
 * the caller is to ask for it once it has let rd.lock go (the template
 * thread's lock comes before ours at a fork).  One not up after
 * READER_WAIT_NS is given up on for the moment: the template thread may be
 * stuck (in a malloc lock held by a G only a look can rescue), and the
 * looks go on without it. */
static bool reader_pending(bool *ask)
{
	if (rd.reader == READER_NONE) {
		if (gmp_debug.noprocreader) {
			rd.reader = READER_NO;
			return false;
		}
		rd.asked = gmp_nanotime();
		__atomic_store_n(&rd.reader, READER_STARTING, __ATOMIC_RELEASE);
		*ask = true;
	}
	return __atomic_load_n(&rd.reader, __ATOMIC_ACQUIRE) == READER_STARTING &&
	       gmp_nanotime() - rd.asked < READER_WAIT_NS;
}

long gmp_procfs_run(long (*fn)(void *arg), void *arg)
{
	if (inlook)
		return fn(arg);
	inlook = 1;
	lock(&rd.lock);
	long r;
	bool ask = false;
	if (reader_pending(&ask)) {
		r = -EAGAIN;
	} else if (__atomic_load_n(&rd.reader, __ATOMIC_ACQUIRE) == READER_UP) {
		rd.fn = fn;
		rd.arg = arg;
		__atomic_store_n(&rd.turn, TURN_POSTED, __ATOMIC_RELEASE);
		gmp_futex_wake_kernel(&rd.turn, 1);
		while (__atomic_load_n(&rd.turn, __ATOMIC_ACQUIRE) != TURN_DONE)
			gmp_futex_wait_kernel(&rd.turn, TURN_POSTED, -1);
		r = rd.result;
		rd.turn = TURN_IDLE;
	} else {
		r = fn(arg);
	}
	unlock(&rd.lock);
	inlook = 0;
	uint32_t starting = READER_STARTING;
	if (ask && !gmp_start_runtime_thread_later(reader, reader_made))
		__atomic_compare_exchange_n(&rd.reader, &starting, READER_NONE, 0, __ATOMIC_ACQ_REL,
					    __ATOMIC_RELAXED); /* another request was pending: ask again later */
	return r;
}

struct taskread {
	char path[64];
	char *buf;
	size_t size;
	int keep; /* the tid whose file the reader may keep open, or 0 */
};

static long read_open(struct taskread *t)
{
	return gmp_syscall6(SYS_openat, AT_FDCWD, (long)t->path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
}

/* A kept file read from its start, opened on first use; -1 when none can
 * be kept (elsewhere than on the reader, or every entry taken). */
static long read_kept(struct taskread *t)
{
	int i, free = -1;
	for (i = 0; i < KEPT_MAX && kept[i].tid != t->keep; i++)
		if (free < 0 && kept[i].tid == 0)
			free = i;
	if (i == KEPT_MAX) {
		long fd = free < 0 ? -1 : read_open(t);
		if (fd < 0)
			return -1;
		kept[i = free].tid = t->keep;
		kept[i].fd = (int)fd;
	}
	long n = gmp_syscall6(SYS_pread64, kept[i].fd, (long)t->buf, (long)t->size - 1, 0, 0, 0);
	if (n < 0) { /* the thread is gone: its tid may come back as another */
		gmp_syscall(SYS_close, kept[i].fd, 0, 0);
		kept[i].tid = 0;
	}
	return n;
}

static long read_task(void *arg)
{
	struct taskread *t = arg;
	long n = t->keep && onreader ? read_kept(t) : -1;
	/* A kept file that fails is read the plain way once more: its callers
	 * act on open's answer (EACCES once the process is no longer
	 * dumpable: rescue.c then reads stat), which a read gives otherwise. */
	if (n < 0) {
		long fd = read_open(t);
		if (fd < 0)
			return fd;
		n = gmp_syscall(SYS_read, fd, t->buf, t->size - 1);
		gmp_syscall(SYS_close, fd, 0, 0);
	}
	if (n >= 0)
		t->buf[n] = 0;
	return n;
}

long gmp_procfs_read_task(int tid, const char *file, char *buf, size_t size)
{
	struct taskread t = { .buf = buf, .size = size };
	const char *dir = tid ? "/proc/self/task/" : "/proc/thread-self/";
	size_t len = strlen(dir);
	memcpy(t.path, dir, len);
	if (tid) {
		char num[16];
		int nd = 0;
		for (int v = tid; v; v /= 10)
			num[nd++] = (char)('0' + v % 10);
		while (nd)
			t.path[len++] = num[--nd];
		t.path[len++] = '/';
	}
	size_t flen = strlen(file);
	if (len + flen >= sizeof t.path)
		return -ENAMETOOLONG;
	memcpy(t.path + len, file, flen + 1);
	if (tid && strcmp(file, "syscall") == 0)
		t.keep = tid;
	return gmp_procfs_run(read_task, &t);
}

int gmp_procfs_threads(void)
{
	/* From the request on: the thread is in /proc/self/task before it
	 * says it is up, and a count must never fall short of the kernel's. */
	uint32_t state = __atomic_load_n(&rd.reader, __ATOMIC_RELAXED);
	return state == READER_STARTING || state == READER_UP;
}

void procfs_fork(enum gmp_fork_phase phase)
{
	/* Taken last: fn makes system calls only, and a G may look (the maps
	 * scan) while it holds other runtime locks. */
	if (phase == FORK_PREPARE)
		lock(&rd.lock);
	else if (phase == FORK_PARENT)
		unlock(&rd.lock);
	else {
		/* The reader did not survive the fork, nor did its table. */
		memset(&rd, 0, sizeof rd);
		memset(kept, 0, sizeof kept);
	}
}
