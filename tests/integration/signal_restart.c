/* Whether a read that a handler interrupted ends with EINTR or goes on is
 * the handler's SA_RESTART, whatever the handler does meanwhile (signal(7)):
 * here every handler parks (a 1 ms sleep), and one makes a read of its own
 * that another handler ends.  A reader waits on an empty pipe:
 *   plain:    SIGUSR1 (no SA_RESTART), which sleeps: the read says EINTR;
 *   restart:  SIGUSR2 (SA_RESTART), which sleeps: the read goes on and
 *             returns the byte main writes afterwards;
 *   nested:   SIGUSR2 whose handler reads another empty pipe, which main
 *             ends with SIGUSR1: that inner read says EINTR, the outer one
 *             goes on and returns main's byte.
 * Under the shim the restart answer is kept per blocking call: a handler's
 * own call must not leave its answer to the call it interrupted. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define TRIALS 30

enum kind { PLAIN, RESTART, NESTED };

static int outer[2], inner[2];
static volatile int reader_tid, inner_result, in_inner;
static volatile enum kind trial_kind;
static ssize_t outer_result;
static int outer_errno;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	pause_us(1000);
}

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	pause_us(1000);
	if (trial_kind != NESTED)
		return;
	int saved = errno;
	char c;
	in_inner = 1;
	ssize_t r = read(inner[0], &c, 1);
	inner_result = r < 0 && errno == EINTR ? 1 : 2;
	errno = saved;
}

static void *reader(void *arg)
{
	(void)arg;
	reader_tid = (int)syscall(SYS_gettid);
	char c;
	outer_result = read(outer[0], &c, 1);
	outer_errno = errno;
	return NULL;
}

#define READ_WAIT "IO wait (read)"

/* Until the reader (or its handler's read: parks more than base) waits. */
static void wait_reading(uint64_t base)
{
	for (int i = 0; i < 5000; i++) {
		if (under_shim() ? shim_parks(READ_WAIT) > base : thread_in_syscall(reader_tid))
			break;
		pause_us(1000);
	}
	pause_us(5000);
}

/* One trial: 1 if every read ended as natively. */
static int trial(enum kind k)
{
	if (pipe(outer) != 0 || pipe(inner) != 0)
		return perror("pipe"), 0;
	trial_kind = k;
	reader_tid = 0;
	in_inner = 0;
	inner_result = 0;
	uint64_t base = shim_parks(READ_WAIT);
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	while (reader_tid == 0)
		pause_us(100);
	wait_reading(base);
	pthread_kill(t, k == PLAIN ? SIGUSR1 : SIGUSR2);
	if (k == NESTED) {
		while (!in_inner)
			pause_us(100);
		wait_reading(base + 1);
		pthread_kill(t, SIGUSR1);
		while (inner_result == 0)
			pause_us(100);
	}
	/* The outer read, if it went on, returns this byte; give a read
	 * that wrongly restarted after a plain signal a moment to show. */
	pause_us(5000);
	if (write(outer[1], "x", 1) != 1)
		perror("write");
	pthread_join(t, NULL);
	int ok;
	if (k == PLAIN)
		ok = outer_result < 0 && outer_errno == EINTR;
	else
		ok = outer_result == 1 && (k != NESTED || inner_result == 1);
	if (!ok)
		fprintf(stderr, "trial %d: read %zd errno %d, inner %d\n", (int)k, outer_result, outer_errno,
			inner_result);
	close(outer[0]);
	close(outer[1]);
	close(inner[0]);
	close(inner[1]);
	return ok;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	handle_info(SIGUSR1, on_usr1, 0);
	handle_info(SIGUSR2, on_usr2, SA_RESTART);
	int ok[3] = { 0, 0, 0 };
	for (int i = 0; i < TRIALS; i++)
		for (int k = PLAIN; k <= NESTED; k++)
			ok[k] += trial((enum kind)k);
	CHECK(ok[PLAIN] == TRIALS, "a handler without SA_RESTART ends the read with EINTR");
	CHECK(ok[RESTART] == TRIALS, "one with SA_RESTART lets it go on");
	CHECK(ok[NESTED] == TRIALS, "a handler's own read ended by another does not end the read it interrupted");
	CHECK(made_as_gs(3 * TRIALS), "the readers were Gs (under the shim)");
	printf("%d failed\n", failures);
	return failures != 0;
}
