/* Credentials from any thread: every call of the set*id family, made from
 * main, from a thread, and from main after it has moved to another kernel
 * thread, applies to every kernel thread of the process (threads parked,
 * blocked in system calls, running; under the shim also every M, sysmon and
 * the template thread), checked in /proc/self/task/\*\/status, and returns
 * what NPTL returns.  A thread that never stops running keeps the one P
 * busy at GMP_MAXPROCS=1: preemption must go on once the process is no
 * longer dumpable and no longer root.  Needs root; otherwise it says so and checks nothing. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#include "check.h"

static atomic_int stop;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void *parked(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	while (!atomic_load(&stop))
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void *in_syscall(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop))
		pause(); /* a SIGSETXID ends it with EINTR, natively as well */
	return NULL;
}

static void *spinning(void *arg)
{
	(void)arg;
	volatile unsigned long n = 0;
	while (!atomic_load(&stop))
		n++;
	return NULL;
}

/* Every task's line `key` equals want; returns the number of tasks. */
static int all_tasks(const char *key, const char *want, int *bad)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[300], line[512];
		snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
		FILE *f = fopen(path, "r");
		if (f == NULL)
			continue; /* gone meanwhile */
		size_t kl = strlen(key);
		while (fgets(line, sizeof line, f))
			if (strncmp(line, key, kl) == 0) {
				line[strcspn(line, "\n")] = 0;
				/* "Groups:\t1 2 3 " keeps a trailing blank. */
				size_t l = strlen(line);
				while (l && line[l - 1] == ' ')
					line[--l] = 0;
				if (strcmp(line + kl, want) != 0) {
					fprintf(stderr, "task %s: %s%s, want %s\n", e->d_name, key, line + kl, want);
					(*bad)++;
				}
			}
		fclose(f);
		n++;
	}
	closedir(d);
	return n;
}

static void expect(const char *what, const char *uid, const char *gid, const char *groups)
{
	int bad = 0, n = all_tasks("Uid:", uid, &bad);
	all_tasks("Gid:", gid, &bad);
	if (groups)
		all_tasks("Groups:", groups, &bad);
	fprintf(stderr, "%s: %d tasks\n", what, n);
	char line[128];
	snprintf(line, sizeof line, "%s: every task", what);
	CHECK(bad == 0 && n > 1, line);
}

struct op {
	const char *what;
	int (*fn)(void);
};

static int op_setgroups(void)
{
	gid_t g[] = { 1, 2, 3 };
	return setgroups(3, g);
}
static int op_setgid(void) { return setgid(5); }
static int op_setegid(void) { return setegid(6); }
static int op_setregid(void) { return setregid(7, 8); }
static int op_setresgid(void) { return setresgid(9, 10, 11); }
static int op_setresuid(void) { return setresuid(0, 60, 0); }
static int op_seteuid0(void) { return seteuid(0); }
static int op_setreuid(void) { return setreuid(0, 70); }
static int op_seteuid0b(void) { return seteuid(0); }
static int op_setuid(void) { return setuid(1000); }
static int op_setuid_back(void) { return setuid(0); }
static int op_setgroups_denied(void) { return setgroups(0, NULL); }

struct call {
	int (*fn)(void);
	int ret, err;
};

static void *on_thread(void *arg)
{
	struct call *c = arg;
	errno = 0;
	c->ret = c->fn();
	c->err = errno;
	return NULL;
}

/* Runs fn on a new thread, returns its result and errno. */
static int from_thread(int (*fn)(void), int *err)
{
	struct call c = { fn, 0, 0 };
	pthread_t t;
	pthread_create(&t, NULL, on_thread, &c);
	pthread_join(t, NULL);
	*err = c.err;
	return c.ret;
}

/* Gives main the chance to be resumed on another M (under the shim: it
 * parks while other threads run; natively harmless). */
static void migrate(void)
{
	char link[64], first[64];
	ssize_t l = readlink("/proc/thread-self", first, sizeof first - 1);
	first[l > 0 ? l : 0] = 0;
	for (int i = 0; i < 200; i++) {
		usleep(200);
		l = readlink("/proc/thread-self", link, sizeof link - 1);
		link[l > 0 ? l : 0] = 0;
		if (strcmp(link, first) != 0)
			break;
	}
	fprintf(stderr, "main on %s (was %s)\n", link, first);
}

int main(void)
{
	if (geteuid() != 0) {
		printf("not root: nothing checked\n");
		return 0;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t t[7];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, parked, NULL);
	for (int i = 3; i < 5; i++)
		pthread_create(&t[i], NULL, in_syscall, NULL);
	pthread_create(&t[5], NULL, spinning, NULL);
	usleep(20000);

	int err;
	CHECK(op_setgroups() == 0, "setgroups from main");
	expect("setgroups from main", "\t0\t0\t0\t0", "\t0\t0\t0\t0", "\t1 2 3");
	CHECK(from_thread(op_setgid, &err) == 0, "setgid from a thread");
	expect("setgid from a thread", "\t0\t0\t0\t0", "\t5\t5\t5\t5", NULL);
	CHECK(from_thread(op_setegid, &err) == 0, "setegid from a thread");
	expect("setegid from a thread", "\t0\t0\t0\t0", "\t5\t6\t5\t6", NULL);
	migrate();
	CHECK(op_setregid() == 0, "setregid from main after it moved");
	expect("setregid from main after it moved", "\t0\t0\t0\t0", "\t7\t8\t8\t8", NULL);
	CHECK(from_thread(op_setresgid, &err) == 0, "setresgid from a thread");
	expect("setresgid from a thread", "\t0\t0\t0\t0", "\t9\t10\t11\t10", NULL);
	CHECK(from_thread(op_setresuid, &err) == 0, "setresuid from a thread");
	expect("setresuid from a thread", "\t0\t60\t0\t60", "\t9\t10\t11\t10", NULL);
	migrate();
	CHECK(op_seteuid0() == 0, "seteuid from main after it moved");
	expect("seteuid from main after it moved", "\t0\t0\t0\t0", "\t9\t10\t11\t10", NULL);
	CHECK(from_thread(op_setreuid, &err) == 0, "setreuid from a thread");
	expect("setreuid from a thread", "\t0\t70\t70\t70", "\t9\t10\t11\t10", NULL);
	CHECK(from_thread(op_seteuid0b, &err) == 0, "seteuid back to the real uid from a thread");
	CHECK(from_thread(op_setuid, &err) == 0, "setuid from a thread");
	expect("setuid from a thread", "\t1000\t1000\t1000\t1000", "\t9\t10\t11\t10", NULL);
	CHECK(from_thread(op_setuid_back, &err) == -1 && err == EPERM, "setuid(0) unprivileged: -1 EPERM");
	CHECK(op_setgroups_denied() == -1 && errno == EPERM, "setgroups unprivileged: -1 EPERM");
	expect("after the refused calls", "\t1000\t1000\t1000\t1000", "\t9\t10\t11\t10", "\t1 2 3");

	atomic_store(&stop, 1);
	pthread_mutex_lock(&mu);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < 6; i++) {
		while (pthread_tryjoin_np(t[i], NULL) == EBUSY) {
			pthread_kill(t[i], SIGUSR1);
			usleep(1000);
		}
	}
	return failures != 0;
}
