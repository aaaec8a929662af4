/* A thread that syncs a file to disk (fsync, fdatasync, syncfs,
 * sync_file_range with a wait, msync with MS_SYNC, syscall(SYS_fsync))
 * keeps its kernel thread for the whole call: under the shim its P leaves
 * with the call, so a thread it had just woken runs meanwhile, where it
 * used to wait until the call returned or sysmon took the P a tick later
 * (a database's commit fsync held up the queries readied behind it).
 *
 * Round by round, the main thread wakes a partner (a semaphore post that
 * queues it on the main thread's P), makes the call with `inside` set,
 * then waits for the partner's answer: what `inside` said when it ran.
 * With one P the partner can only have run while the call was in the
 * kernel if the P went with the call; the runtime's every-61st look at
 * the global queue may run the returning caller first, so most rounds,
 * not all, must say so.  Natively the partner runs on its own thread
 * whenever the kernel picks: only the calls' results are checked. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 40

static sem_t go, answer;
static volatile int inside, saw, stop;

static void *partner(void *arg)
{
	(void)arg;
	for (;;) {
		sem_wait(&go);
		if (stop)
			return NULL;
		saw = inside;
		sem_post(&answer);
	}
}

enum call { FSYNC, FDATASYNC, SYNCFS, SYNC_FILE_RANGE, MSYNC, RAW_FSYNC, NCALLS };
static const char *const names[NCALLS] = { "fsync", "fdatasync", "syncfs", "sync_file_range(WAIT_AFTER)",
					   "msync(MS_SYNC)", "syscall(SYS_fsync)" };

static int make(enum call c, int fd, char *map)
{
	switch (c) {
	case FSYNC:
		return fsync(fd);
	case FDATASYNC:
		return fdatasync(fd);
	case SYNCFS:
		return syncfs(fd);
	case SYNC_FILE_RANGE:
		return sync_file_range(fd, 0, 4096, SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
	case MSYNC:
		return msync(map, 4096, MS_SYNC);
	default:
		return (int)syscall(SYS_fsync, fd);
	}
}

int main(void)
{
	char path[] = "disk_sync.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 4096) != 0) {
		perror("disk_sync: a file in the current directory");
		return 1;
	}
	unlink(path);
	char *map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	sem_init(&go, 0, 0);
	sem_init(&answer, 0, 0);
	pthread_t t;
	pthread_create(&t, NULL, partner, NULL);
	struct gmpshim_stats st;
	int one_p = under_shim() && gmpshim_stats(&st) == 0 && st.gomaxprocs == 1;
	for (int c = 0; c < NCALLS; c++) {
		int ok = 1, during = 0;
		for (int r = 0; r < ROUNDS; r++) {
			/* Something to write back each time. */
			map[r] = (char)(c + r);
			if (pwrite(fd, "x", 1, 100 + r) != 1)
				ok = 0;
			inside = 1;
			sem_post(&go);
			ok &= make(c, fd, map) == 0;
			inside = 0;
			sem_wait(&answer);
			during += saw;
		}
		char what[96];
		snprintf(what, sizeof what, "%s: returns 0", names[c]);
		CHECK(ok, what);
		if (one_p && during < ROUNDS / 2)
			fprintf(stderr, "%s: the woken thread ran during the call in %d of %d rounds\n", names[c], during,
				ROUNDS);
		snprintf(what, sizeof what, "%s: a thread it woke ran meanwhile", names[c]);
		CHECK(!one_p || during >= ROUNDS / 2, what);
	}
	stop = 1;
	sem_post(&go);
	pthread_join(t, NULL);
	CHECK(made_as_gs(1), "the threads were Gs");
	return failures != 0;
}
