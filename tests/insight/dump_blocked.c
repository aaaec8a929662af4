/* A server's worker child, as far as signals go: every thread blocks
 * every signal (the mask is set before any thread starts, and inherited),
 * and the Ms are mostly blocked in the kernel: one thread in a read made
 * by an inline syscall instruction (a call the runtime never sees), one in
 * pause(), one in a condition wait, one spinning, one holding the loader's
 * lock most of the time (dl_iterate_phdr), main asleep.  Prints
 * "ready" once they are all under way; check-dump-blocked then asks for
 * GMP_DUMP_SIGNAL dumps.  Built with frame pointers and -rdynamic so that
 * every frame resolves. */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int pipefd[2], rawpipe[2];
static volatile int started;

__attribute__((noinline)) void *blocked_raw_read(void *arg)
{
	(void)arg;
	char c;
	long r;
	__sync_fetch_and_add(&started, 1);
#if defined(__x86_64__)
	register long fd __asm__("rdi") = rawpipe[0];
	register long buf __asm__("rsi") = (long)&c;
	register long len __asm__("rdx") = 1;
	__asm__ volatile("syscall" : "=a"(r) : "a"((long)SYS_read), "r"(fd), "r"(buf), "r"(len) : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long nr __asm__("x8") = SYS_read;
	register long x0 __asm__("x0") = rawpipe[0];
	register long buf __asm__("x1") = (long)&c;
	register long len __asm__("x2") = 1;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(nr), "r"(buf), "r"(len) : "memory");
	r = x0;
#else
#error "blocked_raw_read: no inline system call for this architecture"
#endif
	(void)r;
	return NULL;
}

__attribute__((noinline)) void *blocked_in_pause(void *arg)
{
	(void)arg;
	__sync_fetch_and_add(&started, 1);
	for (;;)
		pause();
	return NULL;
}

__attribute__((noinline)) void *blocked_in_cond(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	__sync_fetch_and_add(&started, 1);
	for (;;)
		pthread_cond_wait(&cv, &mu);
	return NULL;
}

/* Spends most of its time holding the loader's lock, which every frame
 * of a dump's unwinding needs. */
static int slow_callback(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)info, (void)size, (void)arg;
	for (volatile int i = 0; i < 200000; i++)
		;
	return 0;
}

__attribute__((noinline)) void *in_loader(void *arg)
{
	(void)arg;
	__sync_fetch_and_add(&started, 1);
	for (;;)
		dl_iterate_phdr(slow_callback, NULL);
	return NULL;
}

__attribute__((noinline)) void *spin(void *arg)
{
	(void)arg;
	__sync_fetch_and_add(&started, 1);
	for (volatile unsigned long n = 0;; n++)
		;
	return NULL;
}

__attribute__((noinline)) static void start(void *(*fn)(void *))
{
	pthread_t t;
	if (pthread_create(&t, NULL, fn, NULL) != 0)
		abort();
}

int main(void)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (pipe(pipefd) != 0)
		return 1;
	/* Made behind the runtime's back, so it stays blocking. */
	if (syscall(SYS_pipe2, rawpipe, 0) != 0)
		return 1;
	start(blocked_raw_read);
	start(blocked_in_pause);
	start(blocked_in_cond);
	start(spin);
	start(in_loader);
	while (started < 5)
		usleep(1000);
	usleep(100000); /* into their calls */
	printf("ready\n");
	fflush(stdout);
	for (;;)
		sleep(1000);
}
