/* Threads asleep in system calls while the others must go on: one in a
 * `syscall` instruction of its own (a static library's, a hand-written
 * one) reading a pipe, which the shim never sees, one in liburing's
 * io_uring_enter wait (liburing makes its system calls inline, not through
 * libc; the shim interposes liburing.so's waits).  At one P, a P kept by
 * either call would stop every other thread for as long as it lasts; at
 * two Ps, half the process.  Neither call may see EINTR: the runtime
 * takes the P without interrupting the first, and io_uring ends a wait
 * for any signal, the runtime's too.
 *
 * The pipes are made with the raw system call too: such code uses its own
 * descriptors (a pipe the program made through libc is non-blocking
 * underneath under the shim: see docs/compat.md). */
#include <errno.h>
#include <liburing.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

static long raw_syscall3(long nr, long a1, long a2, long a3)
{
	long r;
#if defined(__x86_64__)
	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a1), "S"(a2), "d"(a3) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a1, x1 __asm__("x1") = a2, x2 __asm__("x2") = a3;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	r = x0;
#else
#error "raw_syscall3: no inline system call for this architecture"
#endif
	return r;
}

#define WORKERS 4
#define ROUNDS 200

static int rawpipe[2], ringpipe[2];
static volatile int blocked_raw, blocked_ring;
static long raw_result = -1000, ring_result = -1000;
static char raw_buf[16], ring_buf[16];

static void *raw_reader(void *arg)
{
	(void)arg;
	blocked_raw = 1;
	raw_result = raw_syscall3(SYS_read, rawpipe[0], (long)raw_buf, sizeof raw_buf);
	return NULL;
}

static void *ring_reader(void *arg)
{
	(void)arg;
	struct io_uring ring;
	int r = io_uring_queue_init(4, &ring, 0);
	if (r < 0) {
		ring_result = r;
		blocked_ring = 1;
		return NULL;
	}
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, ringpipe[0], ring_buf, sizeof ring_buf, 0);
	io_uring_submit(&ring);
	blocked_ring = 1;
	struct io_uring_cqe *cqe;
	r = io_uring_wait_cqe(&ring, &cqe); /* io_uring_enter(GETEVENTS), inline */
	ring_result = r < 0 ? r : cqe->res;
	if (r == 0)
		io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return NULL;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long shared;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&lock);
		shared++;
		pthread_mutex_unlock(&lock);
		if (i % 20 == 0)
			usleep(200);
		else
			sched_yield();
	}
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "raw_block: the other threads did not finish while two slept in raw calls\n";
	if (write(2, msg, sizeof msg - 1) < 0)
		_exit(3);
	_exit(2);
}

int main(void)
{
	if (raw_syscall3(SYS_pipe2, (long)rawpipe, 0, 0) != 0 || raw_syscall3(SYS_pipe2, (long)ringpipe, 0, 0) != 0)
		return 1;
	signal(SIGALRM, on_alarm);
	alarm(60);
	pthread_t rr, ring, w[WORKERS];
	pthread_create(&rr, NULL, raw_reader, NULL);
	pthread_create(&ring, NULL, ring_reader, NULL);
	while (!blocked_raw || !blocked_ring)
		usleep(1000);
	usleep(50000); /* both asleep in the kernel by now */

	for (int i = 0; i < WORKERS; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(w[i], NULL);
	CHECK(shared == WORKERS * ROUNDS, "other threads ran to the end meanwhile");
	CHECK(raw_result == -1000 && ring_result == -1000, "both calls still asleep after that");

	raw_syscall3(SYS_write, rawpipe[1], (long)"hello", 5);
	raw_syscall3(SYS_write, ringpipe[1], (long)"ring!", 5);
	pthread_join(rr, NULL);
	pthread_join(ring, NULL);
	alarm(0);
	CHECK(raw_result == 5 && memcmp(raw_buf, "hello", 5) == 0, "raw read returned the data, no EINTR");
	CHECK(ring_result == 5 && memcmp(ring_buf, "ring!", 5) == 0, "io_uring read completed, no EINTR");
	return failures != 0;
}
