/* The scaling benchmark (bench/run's scaling section, issue 18): N threads
 * with default attributes, all parked on one condition variable, one
 * broadcast, all joined.  Prints one JSON object:
 *   create_s     creating the N threads (the last create has returned)
 *   park_s       from then until every thread waits on the condvar
 *   wake_s       from the broadcast until every thread has left its wait
 *   join_s       joining them all
 *   rss_kb, pte_kb   what the parked threads added to VmRSS and VmPTE
 *   smaps        the same RSS split by kind of mapping (stacks, heap, rest)
 *   threads      kernel threads of the process while all are parked
 *   fork_s       with --fork: a fork while all are parked, until the
 *                parent has the child's exit status (the child exits at once)
 *
 * usage: scale N [--fork] [--hold] [--memory-only] [--sleep | --socket]
 * --hold stops once all are parked, says so on stderr and waits for a line
 * on stdin (to look at the process from outside).  --memory-only makes no
 * thread: it maps N slots of a default stack and its guard and touches the
 * two top pages of each (what a parked thread touches under the shim), so
 * that its fork shows what the kernel alone takes to fork that much
 * memory.  Runs natively and under the shim alike; nothing here knows
 * which. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER, allin = PTHREAD_COND_INITIALIZER,
		      allout = PTHREAD_COND_INITIALIZER;
static long nthreads, parked, left;
static int released;

/* What a thread waits in: the condition variable, a loop of sleeps (the
 * timers), or a read of a socket shared with other readers (the
 * netpoller).  A sleeper's naps last N/20,000 s (at least 1 s) plus up to
 * a second, so that N sleepers fire some 20,000 timers a second whatever
 * N is, and a thread notices the release at its next wake-up. */
static enum { COND, SLEEP, SOCKET } mode;
static int (*socks)[2];
static long nsocks, fires, nap_s;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *run(void *arg)
{
	long i = (long)arg;
	pthread_mutex_lock(&mu);
	if (++parked == nthreads)
		pthread_cond_signal(&allin);
	if (mode == COND) {
		while (!released)
			pthread_cond_wait(&go, &mu);
	} else {
		pthread_mutex_unlock(&mu);
		if (mode == SLEEP) {
			/* Deadlines spread over a second, unrelated to creation. */
			struct timespec ts = { nap_s, (i % 1000) * 1000000L };
			while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE)) {
				nanosleep(&ts, NULL);
				__atomic_add_fetch(&fires, 1, __ATOMIC_RELAXED);
			}
		} else {
			char c;
			if (read(socks[i % nsocks][0], &c, 1) != 1)
				abort();
		}
		pthread_mutex_lock(&mu);
	}
	if (++left == nthreads)
		pthread_cond_signal(&allout);
	pthread_mutex_unlock(&mu);
	return arg;
}

/* A field of /proc/self/status, in kB (or a count). */
static long status(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;
	size_t n = strlen(field);
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, field, n) == 0 && line[n] == ':') {
			v = atol(line + n + 1);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/* RSS in kB by kind of mapping: anonymous mappings of 1 MiB or more
 * without a name (thread stacks, natively and under the shim), [heap],
 * and everything else. */
struct rss {
	long stacks, heap, other;
};

static struct rss smaps(void)
{
	struct rss r = { 0, 0, 0 };
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	long *cur = &r.other;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		char name[256] = "";
		/* A mapping's first line is "lo-hi perms offset dev inode [name]";
		 * its fields follow as "Name: value" lines. */
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &lo, &hi, name) >= 2) {
			if (strcmp(name, "[heap]") == 0)
				cur = &r.heap;
			else if (name[0] == 0 && hi - lo >= (1ul << 20))
				cur = &r.stacks;
			else
				cur = &r.other;
		} else if (strncmp(line, "Rss:", 4) == 0) {
			*cur += atol(line + 4);
		}
	}
	if (f)
		fclose(f);
	return r;
}

/* A fork until the parent has the child's exit status (the child exits
 * at once), in seconds; -1 if it failed. */
static double timed_fork(void)
{
	double f0 = now();
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		perror("fork");
		return -1;
	}
	return now() - f0;
}

static int memory_only(int dofork)
{
	struct rlimit rl;
	size_t stack = 2 << 20, page = 4096;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		stack = rl.rlim_cur;
	size_t slot = stack + page;
	long rss0 = status("VmRSS"), pte0 = status("VmPTE");
	char *mem = mmap(NULL, slot * (size_t)nthreads, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (long i = 0; i < nthreads; i++) {
		mem[(size_t)(i + 1) * slot - 1] = 1;
		mem[(size_t)(i + 1) * slot - page - 1] = 1;
	}
	long rss1 = status("VmRSS"), pte1 = status("VmPTE");
	double fork_s = dofork ? timed_fork() : -1;
	printf("{\"n\": %ld, \"create_s\": 0, \"park_s\": 0, \"wake_s\": 0, \"join_s\": 0, \"rss_kb\": %ld, "
	       "\"pte_kb\": %ld, \"threads\": %ld, \"fork_s\": %.6f, \"failed\": false}\n",
	       nthreads, rss1 - rss0, pte1 - pte0, status("Threads"), fork_s);
	return 0;
}

static double cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* Sockets for the readers: as many as the fd limit allows (a socketpair
 * each, the readers on one end), readers shared among them. */
static int make_sockets(void)
{
	struct rlimit rl;
	long most = 1000;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		most = ((long)rl.rlim_cur - 64) / 2;
	nsocks = nthreads < most ? nthreads : most;
	socks = calloc((size_t)nsocks, sizeof *socks);
	for (long k = 0; k < nsocks; k++)
		if (socks == NULL || socketpair(AF_UNIX, SOCK_STREAM, 0, socks[k]) != 0) {
			perror("socketpair");
			return -1;
		}
	return 0;
}

/* One byte for each reader of each socket. */
static void write_sockets(void)
{
	char buf[256];
	memset(buf, 'x', sizeof buf);
	for (long k = 0; k < nsocks; k++) {
		long readers = nthreads / nsocks + (k < nthreads % nsocks);
		while (readers > 0) {
			ssize_t w = write(socks[k][1], buf, readers < 256 ? (size_t)readers : 256);
			if (w <= 0) {
				perror("write");
				abort();
			}
			readers -= w;
		}
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: scale N [--fork] [--hold] [--memory-only] [--sleep | --socket]\n");
		return 2;
	}
	nthreads = atol(argv[1]);
	int dofork = 0, hold = 0, memonly = 0;
	for (int i = 2; i < argc; i++) {
		dofork |= strcmp(argv[i], "--fork") == 0;
		hold |= strcmp(argv[i], "--hold") == 0;
		memonly |= strcmp(argv[i], "--memory-only") == 0;
		if (strcmp(argv[i], "--sleep") == 0)
			mode = SLEEP;
		if (strcmp(argv[i], "--socket") == 0)
			mode = SOCKET;
	}
	if (memonly)
		return memory_only(dofork);
	pthread_t *t = calloc((size_t)nthreads, sizeof *t);
	if (t == NULL) {
		perror("calloc");
		return 1;
	}
	/* The array's pages counted before, not as the threads' memory. */
	memset(t, 0, (size_t)nthreads * sizeof *t);
	if (mode == SOCKET && make_sockets() != 0)
		return 1;
	nap_s = nthreads / 20000 > 1 ? nthreads / 20000 : 1;
	long rss0 = status("VmRSS"), pte0 = status("VmPTE");
	struct rss s0 = smaps();
	double cpu0 = cpu();

	double t0 = now();
	long made = 0;
	int err = 0;
	while (made < nthreads && (err = pthread_create(&t[made], NULL, run, (void *)made)) == 0)
		made++;
	double t1 = now();
	if (err) {
		fprintf(stderr, "scale: pthread_create: %s after %ld threads\n", strerror(err), made);
		nthreads = made; /* the rest of the run with those there are */
	}
	pthread_mutex_lock(&mu);
	while (parked < nthreads)
		pthread_cond_wait(&allin, &mu);
	pthread_mutex_unlock(&mu);
	double t2 = now();

	long rss1 = status("VmRSS"), pte1 = status("VmPTE"), threads = status("Threads");
	struct rss s1 = smaps();
	if (hold) {
		fprintf(stderr, "scale: %ld threads parked, pid %d; a line on stdin goes on\n", nthreads, (int)getpid());
		char buf[16];
		if (!fgets(buf, sizeof buf, stdin))
			buf[0] = 0;
	}
	double fork_s = dofork ? timed_fork() : -1;
	/* Sleepers: 3 s of their timers firing, with every thread asleep or
	 * about to sleep again. */
	double hold_cpu = 0;
	long hold_fires = 0;
	if (mode == SLEEP) {
		double c0 = cpu();
		long f0 = __atomic_load_n(&fires, __ATOMIC_RELAXED);
		struct timespec ts = { 3, 0 };
		nanosleep(&ts, NULL);
		hold_cpu = cpu() - c0;
		hold_fires = __atomic_load_n(&fires, __ATOMIC_RELAXED) - f0;
	}

	double t3 = now();
	pthread_mutex_lock(&mu);
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	if (mode == COND)
		pthread_cond_broadcast(&go);
	else if (mode == SOCKET)
		write_sockets();
	while (left < nthreads)
		pthread_cond_wait(&allout, &mu);
	pthread_mutex_unlock(&mu);
	double t4 = now();
	for (long i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	double t5 = now();

	printf("{\"n\": %ld, \"create_s\": %.6f, \"park_s\": %.6f, \"wake_s\": %.6f, \"join_s\": %.6f, "
	       "\"rss_kb\": %ld, \"pte_kb\": %ld, \"smaps\": {\"stacks\": %ld, \"heap\": %ld, \"other\": %ld}, "
	       "\"threads\": %ld, \"fork_s\": %.6f, \"cpu_s\": %.3f, \"sockets\": %ld, \"hold_cpu_s\": %.3f, "
	       "\"hold_fires\": %ld, \"failed\": %s}\n",
	       nthreads, t1 - t0, t2 - t1, t4 - t3, t5 - t4, rss1 - rss0, pte1 - pte0, s1.stacks - s0.stacks,
	       s1.heap - s0.heap, s1.other - s0.other, threads, fork_s, cpu() - cpu0, mode == SOCKET ? nsocks : 0,
	       hold_cpu, hold_fires, err ? "true" : "false");
	return 0;
}
