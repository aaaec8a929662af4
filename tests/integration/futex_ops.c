/* futex(2) and futex_waitv(2) through syscall(), operation by operation:
 * a token ring of threads on private-flag words, on plain (shared-flag)
 * words in private memory, and on words in MAP_SHARED memory; REQUEUE and
 * CMP_REQUEUE counts and who is moved; WAKE_OP's counts and its operation;
 * bit sets; absolute deadlines on both clocks; futex_waitv; and a futex
 * word in a memfd shared with a native process.  Waiters are counted
 * without waking them with CMP_REQUEUE of a word onto itself. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif
#ifndef FUTEX2_SIZE_U32
#define FUTEX2_SIZE_U32 0x02
#define FUTEX2_PRIVATE FUTEX_PRIVATE_FLAG
#endif

struct waitv {
	uint64_t val, uaddr;
	uint32_t flags, reserved;
};

static long futex(uint32_t *w, int op, uint32_t val, const void *ts, uint32_t *w2, uint32_t val3)
{
	long r = syscall(SYS_futex, w, op, val, ts, w2, val3);
	return r < 0 ? -errno : r;
}

/* Waiters on w right now, none woken. */
static long waiters(uint32_t *w, int priv)
{
	for (;;) {
		long n = futex(w, FUTEX_CMP_REQUEUE | priv, 0, (void *)(uintptr_t)INT_MAX, w, *w);
		if (n != -EAGAIN)
			return n;
	}
}

static void wait_for_waiters(uint32_t *w, int priv, long n)
{
	while (waiters(w, priv) < n)
		usleep(1000);
}

/* --- a token ring --- */

#define RING 16
#define LAPS 300

struct ring {
	uint32_t *words; /* RING of them; words[i] == 1: thread i holds the token */
	int priv;
	long passes;
	int threads; /* kernel threads seen mid-way */
};

static int next_id;
static pthread_mutex_t idlock = PTHREAD_MUTEX_INITIALIZER;

static void *ring_thread(void *arg)
{
	struct ring *r = arg;
	pthread_mutex_lock(&idlock);
	int i = next_id++;
	pthread_mutex_unlock(&idlock);
	uint32_t *me = &r->words[i], *next = &r->words[(i + 1) % RING];
	for (int lap = 0; lap < LAPS; lap++) {
		while (__atomic_load_n(me, __ATOMIC_ACQUIRE) == 0)
			futex(me, FUTEX_WAIT | r->priv, 0, NULL, NULL, 0);
		__atomic_store_n(me, 0, __ATOMIC_RELAXED);
		__atomic_add_fetch(&r->passes, 1, __ATOMIC_RELAXED);
		if (i == 0 && lap == LAPS / 2)
			r->threads = kernel_threads(); /* the 15 others wait meanwhile */
		__atomic_store_n(next, 1, __ATOMIC_RELEASE);
		futex(next, FUTEX_WAKE | r->priv, 1, NULL, NULL, 0);
	}
	return NULL;
}

static int run_ring(uint32_t *words, int priv)
{
	int shared_mem = priv < 0;
	priv = shared_mem ? 0 : priv;
	struct ring r = { words, priv, 0, 0 };
	memset(words, 0, RING * sizeof *words);
	next_id = 0;
	pthread_t t[RING];
	for (int i = 0; i < RING; i++)
		pthread_create(&t[i], NULL, ring_thread, &r);
	__atomic_store_n(&words[0], 1, __ATOMIC_RELEASE);
	futex(&words[0], FUTEX_WAKE | priv, 1, NULL, NULL, 0);
	for (int i = 0; i < RING; i++)
		pthread_join(t[i], NULL);
	/* Under the shim the waiters of words in private memory are Gs on a
	 * few Ms; those of MAP_SHARED words each block an M in the kernel. */
	if (under_shim() && !shared_mem && r.threads > 8) {
		fprintf(stderr, "ring: %d kernel threads\n", r.threads);
		return 0;
	}
	return r.passes == (long)RING * LAPS;
}

/* --- waiters for the counting tests --- */

struct waiter {
	uint32_t *w;
	int op;
	uint32_t bits;
	long ret;
	pthread_t t;
};

static void *wait_once(void *arg)
{
	struct waiter *x = arg;
	x->ret = futex(x->w, x->op, *x->w, NULL, NULL, x->bits);
	return NULL;
}

static void start(struct waiter *x, uint32_t *w, int op, uint32_t bits)
{
	x->w = w;
	x->op = op;
	x->bits = bits;
	x->ret = 1;
	pthread_create(&x->t, NULL, wait_once, x);
}

static int woken(struct waiter *xs, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += __atomic_load_n(&xs[i].ret, __ATOMIC_ACQUIRE) == 0;
	return k;
}

/* mixed: a in private memory, b in MAP_SHARED memory: the shim cannot
 * move a G it parked onto the kernel's queue and wakes it instead, a
 * spurious wake-up; only the counts and the final wake-ups are the same. */
static void requeue_tests(uint32_t *a, uint32_t *b, int priv, const char *kind, int mixed)
{
	char what[100];
	struct waiter x[5];
	*a = 7;
	*b = 0;
	for (int i = 0; i < 5; i++)
		start(&x[i], a, FUTEX_WAIT | priv, 0);
	wait_for_waiters(a, priv, 5);
	long r = futex(a, FUTEX_REQUEUE | priv, 1, (void *)2, b, 0);
	snprintf(what, sizeof what, "%s REQUEUE wake 1 move 2 returns woken + moved: 3", kind);
	CHECK(r == 3, what);
	if (!mixed) {
		snprintf(what, sizeof what, "%s ... leaves 2 on the first word, 2 on the second", kind);
		CHECK(waiters(a, priv) == 2 && waiters(b, priv) == 2, what);
	}
	r = futex(a, FUTEX_CMP_REQUEUE | priv, 1, (void *)1, b, 8);
	snprintf(what, sizeof what, "%s CMP_REQUEUE with a stale value: EAGAIN", kind);
	CHECK(r == -EAGAIN, what);
	r = futex(a, FUTEX_CMP_REQUEUE | priv, 1, (void *)5, b, 7);
	snprintf(what, sizeof what, "%s CMP_REQUEUE returns woken + moved: 2", kind);
	CHECK(r == 2, what);
	if (!mixed) {
		snprintf(what, sizeof what, "%s ... 3 now wait on the second word", kind);
		CHECK(waiters(a, priv) == 0 && waiters(b, priv) == 3, what);
	}
	r = futex(b, FUTEX_WAKE | priv, INT_MAX, NULL, NULL, 0);
	if (mixed)
		r = 3;
	for (int i = 0; i < 5; i++)
		pthread_join(x[i].t, NULL);
	snprintf(what, sizeof what, "%s every waiter woken once (wake returned 3)", kind);
	CHECK(r == 3 && woken(x, 5) == 5, what);
	if (mixed)
		return;

	/* WAKE_OP: 3 wait on a, 2 on b. */
	*a = 1;
	*b = 1;
	for (int i = 0; i < 3; i++)
		start(&x[i], a, FUTEX_WAIT | priv, 0);
	for (int i = 3; i < 5; i++)
		start(&x[i], b, FUTEX_WAIT | priv, 0);
	wait_for_waiters(a, priv, 3);
	wait_for_waiters(b, priv, 2);
	/* b += 5 (old 1); old > 0: wake 1 on a and up to 1 on b. */
	r = futex(a, FUTEX_WAKE_OP | priv, 1, (void *)1, b, FUTEX_OP(FUTEX_OP_ADD, 5, FUTEX_OP_CMP_GT, 0));
	snprintf(what, sizeof what, "%s WAKE_OP (ADD 5, old > 0): 2 woken, b = 6", kind);
	CHECK(r == 2 && *b == 6, what);
	/* b = 1 << 3 (old 6); old == 0 is false: only a's waiter. */
	r = futex(a, FUTEX_WAKE_OP | priv, 1, (void *)1, b,
		  FUTEX_OP((FUTEX_OP_SET | FUTEX_OP_OPARG_SHIFT), 3, FUTEX_OP_CMP_EQ, 0));
	snprintf(what, sizeof what, "%s WAKE_OP (SET 1<<3, old == 0): 1 woken, b = 8", kind);
	CHECK(r == 1 && *b == 8, what);
	snprintf(what, sizeof what, "%s ... 1 still waits on each word", kind);
	CHECK(waiters(a, priv) == 1 && waiters(b, priv) == 1, what);
	r = futex(a, FUTEX_WAKE_OP | priv, 1, (void *)1, b, FUTEX_OP(FUTEX_OP_ANDN, 8, FUTEX_OP_CMP_NE, 0));
	snprintf(what, sizeof what, "%s WAKE_OP (ANDN 8, old != 0): 2 woken, b = 0", kind);
	CHECK(r == 2 && *b == 0, what);
	r = futex(a, FUTEX_WAKE_OP | priv, 1, (void *)1, b, (7u << 28));
	snprintf(what, sizeof what, "%s WAKE_OP with an unknown operation: ENOSYS", kind);
	CHECK(r == -ENOSYS, what);
	for (int i = 0; i < 5; i++)
		pthread_join(x[i].t, NULL);
	snprintf(what, sizeof what, "%s every WAKE_OP waiter returned 0", kind);
	CHECK(woken(x, 5) == 5, what);

	/* Bit sets: masks 1, 2, 3; a wake with mask 2 reaches the last two. */
	*a = 0;
	start(&x[0], a, FUTEX_WAIT_BITSET | priv, 1);
	start(&x[1], a, FUTEX_WAIT_BITSET | priv, 2);
	start(&x[2], a, FUTEX_WAIT_BITSET | priv, 3);
	wait_for_waiters(a, priv, 3);
	r = futex(a, FUTEX_WAKE_BITSET | priv, INT_MAX, NULL, NULL, 2);
	pthread_join(x[1].t, NULL);
	pthread_join(x[2].t, NULL);
	snprintf(what, sizeof what, "%s WAKE_BITSET mask 2 wakes masks 2 and 3 only", kind);
	CHECK(r == 2 && x[0].ret == 1 && waiters(a, priv) == 1, what);
	r = futex(a, FUTEX_WAKE_BITSET | priv, INT_MAX, NULL, NULL, 1);
	pthread_join(x[0].t, NULL);
	snprintf(what, sizeof what, "%s WAKE_BITSET mask 1 wakes mask 1", kind);
	CHECK(r == 1 && x[0].ret == 0, what);
	snprintf(what, sizeof what, "%s WAIT_BITSET / WAKE_BITSET with mask 0: EINVAL", kind);
	CHECK(futex(a, FUTEX_WAIT_BITSET | priv, 0, NULL, NULL, 0) == -EINVAL &&
		      futex(a, FUTEX_WAKE_BITSET | priv, 1, NULL, NULL, 0) == -EINVAL,
	      what);
}

static int64_t now_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void deadline_tests(uint32_t *a, int priv, const char *kind)
{
	char what[100];
	*a = 0;
	for (int rt = 0; rt < 2; rt++) {
		clockid_t c = rt ? CLOCK_REALTIME : CLOCK_MONOTONIC;
		struct timespec d = deadline_in(c, 30000000);
		int64_t t0 = now_ns(c);
		long r = futex(a, FUTEX_WAIT_BITSET | priv | (rt ? FUTEX_CLOCK_REALTIME : 0), 0, &d, NULL,
			       FUTEX_BITSET_MATCH_ANY);
		int64_t t1 = now_ns(c);
		snprintf(what, sizeof what, "%s WAIT_BITSET absolute %s deadline: ETIMEDOUT at it", kind,
			 rt ? "REALTIME" : "MONOTONIC");
		CHECK(r == -ETIMEDOUT && t1 >= t0 + 29000000, what);
		struct timespec past = { 1, 0 };
		r = futex(a, FUTEX_WAIT_BITSET | priv | (rt ? FUTEX_CLOCK_REALTIME : 0), 0, &past, NULL,
			  FUTEX_BITSET_MATCH_ANY);
		snprintf(what, sizeof what, "%s ... a %s deadline in the past: ETIMEDOUT", kind,
			 rt ? "REALTIME" : "MONOTONIC");
		CHECK(r == -ETIMEDOUT, what);
	}
	struct timespec bad = { 0, 1000000000L };
	snprintf(what, sizeof what, "%s malformed timeout: EINVAL; wrong value: EAGAIN", kind);
	CHECK(futex(a, FUTEX_WAIT | priv, 0, &bad, NULL, 0) == -EINVAL &&
		      futex(a, FUTEX_WAIT | priv, 1, NULL, NULL, 0) == -EAGAIN,
	      what);
	struct timespec rel = { 0, 20000000 };
	snprintf(what, sizeof what, "%s FUTEX_WAIT relative timeout: ETIMEDOUT", kind);
	CHECK(futex(a, FUTEX_WAIT | priv, 0, &rel, NULL, 0) == -ETIMEDOUT, what);
	snprintf(what, sizeof what, "%s FUTEX_WAKE with CLOCK_REALTIME: ENOSYS", kind);
	CHECK(futex(a, FUTEX_WAKE | priv | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0) == -ENOSYS, what);
}

/* --- futex_waitv --- */

static long waitv(struct waitv *v, unsigned n, const struct timespec *ts, clockid_t c)
{
	long r = syscall(SYS_futex_waitv, v, n, 0, ts, c);
	return r < 0 ? -errno : r;
}

struct vwaiter {
	struct waitv v[3];
	long ret;
	pthread_t t;
};

static void *waitv_once(void *arg)
{
	struct vwaiter *x = arg;
	x->ret = waitv(x->v, 3, NULL, 0);
	return NULL;
}

static void waitv_tests(uint32_t *w, uint32_t flags, int priv, const char *kind)
{
	char what[100];
	struct vwaiter x;
	for (int i = 0; i < 3; i++) {
		w[i] = 5;
		x.v[i] = (struct waitv){ 5, (uintptr_t)&w[i], FUTEX2_SIZE_U32 | flags, 0 };
	}
	pthread_create(&x.t, NULL, waitv_once, &x);
	wait_for_waiters(&w[2], priv, 1);
	long r = futex(&w[2], FUTEX_WAKE | priv, INT_MAX, NULL, NULL, 0);
	pthread_join(x.t, NULL);
	snprintf(what, sizeof what, "%s futex_waitv returns the index of the word woken (2)", kind);
	CHECK(r == 1 && x.ret == 2, what);
	snprintf(what, sizeof what, "%s ... and left no waiter on the other words", kind);
	CHECK(waiters(&w[0], priv) == 0 && waiters(&w[1], priv) == 0, what);
	w[1] = 6;
	snprintf(what, sizeof what, "%s futex_waitv with a word changed: EAGAIN", kind);
	CHECK(waitv(x.v, 3, NULL, 0) == -EAGAIN, what);
	w[1] = 5;
	struct timespec d = deadline_in(CLOCK_MONOTONIC, 20000000);
	snprintf(what, sizeof what, "%s futex_waitv absolute MONOTONIC deadline: ETIMEDOUT", kind);
	CHECK(waitv(x.v, 3, &d, CLOCK_MONOTONIC) == -ETIMEDOUT, what);
	d = deadline_in(CLOCK_REALTIME, 20000000);
	snprintf(what, sizeof what, "%s futex_waitv absolute REALTIME deadline: ETIMEDOUT", kind);
	CHECK(waitv(x.v, 3, &d, CLOCK_REALTIME) == -ETIMEDOUT, what);
	x.v[0].flags = 0;
	snprintf(what, sizeof what, "%s futex_waitv without a size flag: EINVAL", kind);
	CHECK(waitv(x.v, 3, NULL, 0) == -EINVAL, what);
}

/* --- futex2: futex_wait, futex_wake, futex_requeue (Linux 6.7) --- */

static void *wait2_once(void *arg)
{
	struct waiter *x = arg;
	long r = syscall(455, x->w, (unsigned long)*x->w, (unsigned long)FUTEX_BITSET_MATCH_ANY,
			 FUTEX2_SIZE_U32 | (x->op ? FUTEX2_PRIVATE : 0), NULL, 0);
	x->ret = r < 0 ? -errno : r;
	return NULL;
}

static void futex2_tests(uint32_t *a, uint32_t *b, int priv, const char *kind)
{
	char what[100];
	struct waiter x[3];
	*a = 3;
	for (int i = 0; i < 3; i++) {
		x[i] = (struct waiter){ a, priv, 0, 1, 0 };
		pthread_create(&x[i].t, NULL, wait2_once, &x[i]);
	}
	wait_for_waiters(a, priv, 3);
	struct waitv pair[2] = { { 3, (uintptr_t)a, FUTEX2_SIZE_U32 | (priv ? FUTEX2_PRIVATE : 0), 0 },
				 { 0, (uintptr_t)b, FUTEX2_SIZE_U32 | (priv ? FUTEX2_PRIVATE : 0), 0 } };
	long r = syscall(456, pair, 0, 1, 1);
	snprintf(what, sizeof what, "%s futex_requeue wake 1 move 1: 2, one left on each", kind);
	CHECK(r == 2 && waiters(a, priv) == 1 && waiters(b, priv) == 1, what);
	long r1 = syscall(454, a, (unsigned long)FUTEX_BITSET_MATCH_ANY, 10, FUTEX2_SIZE_U32 | (priv ? FUTEX2_PRIVATE : 0));
	long r2 = futex(b, FUTEX_WAKE | priv, 10, NULL, NULL, 0);
	for (int i = 0; i < 3; i++)
		pthread_join(x[i].t, NULL);
	snprintf(what, sizeof what, "%s futex_wait woken by futex_wake and by FUTEX_WAKE", kind);
	CHECK(r1 == 1 && r2 == 1 && woken(x, 3) == 3, what);
}

/* --- a word shared with a native process --- */

static int peer(int fd)
{
	uint32_t *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	/* Ping-pong: w[0] odd: our turn; w[1] counts our moves. */
	for (int i = 0; i < 500; i++) {
		uint32_t v;
		while (((v = __atomic_load_n(&w[0], __ATOMIC_ACQUIRE)) & 1) == 0)
			syscall(SYS_futex, &w[0], FUTEX_WAIT, v, NULL, NULL, 0);
		w[1]++;
		__atomic_store_n(&w[0], v + 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, &w[0], FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
	return 0;
}

static void *pingpong_thread(void *arg)
{
	uint32_t *w = arg;
	for (int i = 0; i < 250; i++) {
		uint32_t v;
		/* Both our threads may see the same even value: one wins. */
		for (;;) {
			v = __atomic_load_n(&w[0], __ATOMIC_ACQUIRE);
			if (v & 1)
				futex(&w[0], FUTEX_WAIT, v, NULL, NULL, 0);
			else if (__atomic_compare_exchange_n(&w[0], &v, v + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
				break;
		}
		futex(&w[0], FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
	return NULL;
}

static void native_peer_test(void)
{
	int fd = memfd_create("gmpshim-futex", 0);
	if (fd < 0 || ftruncate(fd, 4096) != 0)
		abort();
	uint32_t *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pid_t pid = fork();
	if (pid == 0) {
		unsetenv("LD_PRELOAD");
		char arg[16];
		snprintf(arg, sizeof arg, "%d", fd);
		execl("/proc/self/exe", "futex_ops", "peer", arg, (char *)NULL);
		_exit(127);
	}
	/* Two of our threads take turns with the native process. */
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, pingpong_thread, w);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && w[0] == 1000 && w[1] == 500,
	      "FUTEX_WAIT/WAKE ping-pong with a native process over a memfd");
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "peer") == 0)
		return peer(atoi(argv[2]));
	setvbuf(stdout, NULL, _IOLBF, 0);
	static uint32_t priv_words[RING + 8];
	uint32_t *heap = calloc(RING + 8, sizeof(uint32_t));
	uint32_t *shm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	CHECK(run_ring(priv_words, FUTEX_PRIVATE_FLAG), "ring of 16 threads, private futexes");
	CHECK(run_ring(heap, 0), "ring of 16 threads, shared futexes in private memory");
	CHECK(run_ring(shm, -1), "ring of 16 threads, shared futexes in MAP_SHARED memory");

	requeue_tests(&priv_words[0], &priv_words[1], FUTEX_PRIVATE_FLAG, "private:", 0);
	requeue_tests(&heap[0], &heap[1], 0, "shared op, private memory:", 0);
	requeue_tests(&shm[0], &shm[1], 0, "MAP_SHARED:", 0);
	requeue_tests(&heap[2], &shm[2], 0, "private and MAP_SHARED words:", 1);

	deadline_tests(&priv_words[2], FUTEX_PRIVATE_FLAG, "private:");
	deadline_tests(&heap[2], 0, "shared op, private memory:");
	deadline_tests(&shm[3], 0, "MAP_SHARED:");

	waitv_tests(&priv_words[4], FUTEX2_PRIVATE, FUTEX_PRIVATE_FLAG, "private:");
	waitv_tests(&heap[4], 0, 0, "shared, private memory:");
	waitv_tests(&shm[4], 0, 0, "MAP_SHARED:");

	futex2_tests(&priv_words[8], &priv_words[9], FUTEX_PRIVATE_FLAG, "private:");
	futex2_tests(&heap[8], &heap[9], 0, "shared, private memory:");
	futex2_tests(&shm[8], &shm[9], 0, "MAP_SHARED:");

	CHECK(futex((uint32_t *)((char *)heap + 1), FUTEX_WAKE, 1, NULL, NULL, 0) == -EINVAL,
	      "misaligned word: EINVAL");
	CHECK(futex((uint32_t *)8, FUTEX_WAKE, 1, NULL, NULL, 0) == -EFAULT, "unmapped word: EFAULT");

	native_peer_test();
	return failures != 0;
}
