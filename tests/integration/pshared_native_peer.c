/* Process-shared objects between a process under the shim and a native
 * one (under run-both's shim run, every process we exec without
 * LD_PRELOAD runs on plain NPTL): semaphore ping-pong, mutex + condvar
 * turns, and robust mutex owner death in both directions (a shimmed
 * holder killed with SIGKILL seen by a native locker, a native holder
 * killed seen by us, and our thread exiting while a native process
 * waits).  Natively every process is native and the output is the same. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 1000

struct shm {
	sem_t ping, pong, ready;
	pthread_mutex_t m;
	pthread_cond_t c;
	int turn;
	long turns;
	pthread_mutex_t rm1, rm2, rm3;
};

static struct shm *map(int fd)
{
	struct shm *s = mmap(NULL, sizeof(struct shm), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		abort();
	return s;
}

/* --- the peer's roles, run in a fresh exec'd process --- */

static int shim_loaded(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;
	while (f && fgets(line, sizeof line, f))
		found |= strstr(line, "libgmpshim") != NULL;
	if (f)
		fclose(f);
	return found;
}

static int peer(const char *role, int fd)
{
	struct shm *s = map(fd);
	if (shim_loaded())
		return 3; /* the peer must be native */
	if (strcmp(role, "pingpong") == 0) {
		for (int i = 0; i < ROUNDS; i++) {
			while (sem_wait(&s->ping) != 0)
				;
			sem_post(&s->pong);
		}
		for (int i = 0; i < ROUNDS; i++) {
			pthread_mutex_lock(&s->m);
			while (s->turn != 1)
				pthread_cond_wait(&s->c, &s->m);
			s->turns++;
			s->turn = 0;
			pthread_cond_signal(&s->c);
			pthread_mutex_unlock(&s->m);
		}
		return 0;
	}
	if (strcmp(role, "hold") == 0) { /* hold rm2 until killed */
		pthread_mutex_lock(&s->rm2);
		sem_post(&s->ready);
		for (;;)
			pause();
	}
	if (strcmp(role, "lock1") == 0) /* expects the holder of rm1 to be dead */
		return pthread_mutex_lock(&s->rm1) == EOWNERDEAD ? 0 : 1;
	if (strcmp(role, "lock3") == 0) { /* waits on rm3 while its holder exits */
		sem_post(&s->ready);
		return pthread_mutex_lock(&s->rm3) == EOWNERDEAD ? 0 : 1;
	}
	return 2;
}

/* --- the process under test --- */

static int shmfd;

/* Starts the peer with a role; native (no LD_PRELOAD) unless keep_shim. */
static pid_t spawn(const char *role, int keep_shim)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (!keep_shim)
			unsetenv("LD_PRELOAD");
		char fdarg[16];
		snprintf(fdarg, sizeof fdarg, "%d", shmfd);
		execl("/proc/self/exe", "pshared_native_peer", role, fdarg, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int exit_code(pid_t pid)
{
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void robust_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(m, &a);
}

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static volatile int held;

static void *hold_until_gate(void *arg)
{
	pthread_mutex_lock(arg);
	held = 1;
	pthread_mutex_lock(&gate);
	pthread_mutex_unlock(&gate);
	return NULL; /* exits holding arg */
}

int main(int argc, char **argv)
{
	if (argc == 3)
		return peer(argv[1], atoi(argv[2]));
	setvbuf(stdout, NULL, _IOLBF, 0);
	shmfd = memfd_create("gmpshim-test", 0); /* no CLOEXEC: the peer inherits it */
	if (shmfd < 0 || ftruncate(shmfd, sizeof(struct shm)) != 0)
		return 1;
	struct shm *s = map(shmfd);
	sem_init(&s->ping, 1, 0);
	sem_init(&s->pong, 1, 0);
	sem_init(&s->ready, 1, 0);
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&s->m, &ma);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_cond_init(&s->c, &ca);
	robust_init(&s->rm1);
	robust_init(&s->rm2);
	robust_init(&s->rm3);

	/* Semaphores and mutex + condvar with a native peer. */
	pid_t pid = spawn("pingpong", 0);
	int ok = 1;
	for (int i = 0; i < ROUNDS; i++) {
		sem_post(&s->ping);
		while (sem_wait(&s->pong) != 0)
			;
	}
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&s->m);
		while (s->turn != 0)
			pthread_cond_wait(&s->c, &s->m);
		s->turns++;
		s->turn = 1;
		pthread_cond_signal(&s->c);
		pthread_mutex_unlock(&s->m);
	}
	ok = exit_code(pid) == 0;
	CHECK(ok, "native peer: 1000 semaphore ping-pongs done");
	CHECK(s->turns == 2 * ROUNDS, "native peer: 2000 mutex + condvar turns");

	/* A process under the shim (this program) holds rm1 and is killed:
	 * a native process gets EOWNERDEAD. */
	pid_t holder = fork();
	if (holder == 0) {
		pthread_mutex_lock(&s->rm1);
		sem_post(&s->ready);
		for (;;)
			pause();
	}
	while (sem_wait(&s->ready) != 0)
		;
	kill(holder, SIGKILL);
	exit_code(holder);
	CHECK(exit_code(spawn("lock1", 0)) == 0, "our holder killed: a native locker gets EOWNERDEAD");

	/* A native holder of rm2 is killed: we get EOWNERDEAD. */
	pid = spawn("hold", 0);
	while (sem_wait(&s->ready) != 0)
		;
	CHECK(pthread_mutex_trylock(&s->rm2) == EBUSY, "native holder: trylock EBUSY");
	kill(pid, SIGKILL);
	exit_code(pid);
	CHECK(pthread_mutex_lock(&s->rm2) == EOWNERDEAD, "native holder killed: EOWNERDEAD for us");
	CHECK(pthread_mutex_consistent(&s->rm2) == 0 && pthread_mutex_unlock(&s->rm2) == 0, "consistent, unlock");

	/* Our thread exits holding rm3 while a native process waits on it. */
	pthread_t t;
	pthread_mutex_lock(&gate);
	pthread_create(&t, NULL, hold_until_gate, &s->rm3);
	while (!held)
		usleep(1000);
	pid = spawn("lock3", 0);
	while (sem_wait(&s->ready) != 0)
		;
	usleep(50000); /* let it block */
	pthread_mutex_unlock(&gate);
	pthread_join(t, NULL);
	CHECK(exit_code(pid) == 0, "our thread exited holding it: the native waiter gets EOWNERDEAD");
	return failures != 0;
}
