/* Thread IDs as Linux gives them: gettid() (and syscall(SYS_gettid)) is
 * distinct in every live thread, the process ID in the initial thread
 * only, and the same for a thread's whole life; the calls that name a
 * thread by it act on that thread: tgkill, tkill and rt_tgsigqueueinfo
 * run the handler there with the siginfo the kernel gives, sig 0 tells a
 * live thread from one that has exited, sched_setaffinity sets what
 * pthread_getaffinity_np reports, get_robust_list reads the thread's own
 * list, getpriority answers, /proc/self/task/TID/ and /proc/TID/ are
 * there (open and fopen), and a fork child's initial thread has the
 * child's process ID.  More threads than CPUs, so that under the shim
 * several share an M. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define NT 40

static pthread_barrier_t all_up, checked;
static pid_t tids[NT], raw_tids[NT], later_tids[NT];
static struct robust_list_head heads[NT];
static volatile pid_t handler_tid[NT];
static volatile int handler_code[NT], handler_pid[NT], handler_value[NT], handler_runs[NT];
static __thread int my_index = -1;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	int i = my_index;
	if (i < 0)
		return;
	handler_tid[i] = gettid();
	handler_code[i] = si->si_code;
	handler_pid[i] = si->si_pid;
	handler_value[i] = si->si_value.sival_int;
	__atomic_add_fetch(&handler_runs[i], 1, __ATOMIC_SEQ_CST);
}

static void *worker(void *arg)
{
	int i = (int)(intptr_t)arg;
	my_index = i;
	tids[i] = gettid();
	raw_tids[i] = (pid_t)syscall(SYS_gettid);
	heads[i].list.next = &heads[i].list;
	syscall(SYS_set_robust_list, &heads[i], sizeof heads[i]);
	pthread_barrier_wait(&all_up);
	/* main signals and inspects every thread here */
	pthread_barrier_wait(&checked);
	/* moved around by now under the shim: still the same TID */
	for (int k = 0; k < 5; k++) {
		sched_yield();
		pause_us(200);
	}
	later_tids[i] = gettid();
	return NULL;
}

static int wait_runs(int i, int n)
{
	for (int k = 0; k < 5000 && __atomic_load_n(&handler_runs[i], __ATOMIC_SEQ_CST) < n; k++)
		pause_us(1000);
	return handler_runs[i] == n;
}

/* One TID per live thread, none the process ID, gettid() as the system
 * call says. */
static void check_unique(void)
{
	int distinct = 1, notpid = 1, same = 1;
	for (int i = 0; i < NT; i++) {
		notpid &= tids[i] != getpid() && tids[i] > 0;
		same &= raw_tids[i] == tids[i];
		for (int j = 0; j < i; j++)
			distinct &= tids[i] != tids[j];
	}
	CHECK(gettid() == getpid() && syscall(SYS_gettid) == getpid(), "initial thread: gettid() is the process ID");
	CHECK(distinct, "every live thread has a TID of its own");
	CHECK(notpid, "no other thread has the process ID");
	CHECK(same, "syscall(SYS_gettid) == gettid()");
}

static void check_signals(void)
{
	int ok_tg = 1, ok_tk = 1, ok_q = 1, ok_zero = 1;
	for (int i = 0; i < NT; i++) {
		ok_zero &= tgkill(getpid(), tids[i], 0) == 0;
		ok_tg &= tgkill(getpid(), tids[i], SIGUSR1) == 0 && wait_runs(i, 1) && handler_tid[i] == tids[i] &&
			 handler_code[i] == SI_TKILL && handler_pid[i] == getpid();
		ok_tk &= syscall(SYS_tkill, tids[i], SIGUSR1) == 0 && wait_runs(i, 2) && handler_tid[i] == tids[i] &&
			 handler_code[i] == SI_TKILL;
		siginfo_t si;
		memset(&si, 0, sizeof si);
		si.si_signo = SIGUSR2;
		si.si_code = SI_QUEUE;
		si.si_pid = getpid();
		si.si_uid = getuid();
		si.si_value.sival_int = 1000 + i;
		ok_q &= syscall(SYS_rt_tgsigqueueinfo, getpid(), tids[i], SIGUSR2, &si) == 0 && wait_runs(i, 3) &&
			handler_tid[i] == tids[i] && handler_code[i] == SI_QUEUE && handler_value[i] == 1000 + i;
	}
	CHECK(ok_zero, "tgkill(pid, tid, 0): every live thread is there");
	CHECK(ok_tg, "tgkill: the handler runs on that thread, SI_TKILL from us");
	CHECK(ok_tk, "syscall(SYS_tkill): the handler runs on that thread");
	CHECK(ok_q, "rt_tgsigqueueinfo: that thread, with our siginfo and value");
	siginfo_t forged;
	memset(&forged, 0, sizeof forged);
	forged.si_code = SI_USER;
	errno = 0;
	CHECK(syscall(SYS_rt_tgsigqueueinfo, getpid(), tids[0], SIGUSR2, &forged) == -1 && errno == EPERM,
	      "rt_tgsigqueueinfo with si_code >= 0 to another thread: EPERM");
}

static int read_first_line(const char *path, int use_fopen)
{
	char buf[256];
	if (use_fopen) {
		FILE *f = fopen(path, "r");
		int ok = f && fgets(buf, sizeof buf, f) != NULL;
		if (f)
			fclose(f);
		return ok;
	}
	int fd = open(path, O_RDONLY);
	int ok = fd >= 0 && read(fd, buf, sizeof buf) > 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

static void check_named_calls(pthread_t *th)
{
	int ok_aff = 1, ok_rob = 1, ok_prio = 1, ok_proc = 1;
	for (int i = 0; i < NT; i++) {
		cpu_set_t one, got, got2;
		CPU_ZERO(&one);
		CPU_SET(0, &one);
		ok_aff &= sched_setaffinity(tids[i], sizeof one, &one) == 0 &&
			  pthread_getaffinity_np(th[i], sizeof got, &got) == 0 && CPU_EQUAL(&got, &one) &&
			  sched_getaffinity(tids[i], sizeof got2, &got2) == 0 && CPU_EQUAL(&got2, &one);
		struct robust_list_head *h = NULL;
		size_t len = 0;
		ok_rob &= syscall(SYS_get_robust_list, tids[i], &h, &len) == 0 && h == &heads[i] && len == sizeof *h;
		errno = 0;
		int p = getpriority(PRIO_PROCESS, (id_t)tids[i]);
		ok_prio &= errno == 0 && p == getpriority(PRIO_PROCESS, 0);
		char path[96];
		snprintf(path, sizeof path, "/proc/self/task/%d/stat", tids[i]);
		ok_proc &= read_first_line(path, 1) && read_first_line(path, 0);
		snprintf(path, sizeof path, "/proc/%d/task/%d/status", getpid(), tids[i]);
		ok_proc &= read_first_line(path, 1);
		snprintf(path, sizeof path, "/proc/%d/comm", tids[i]);
		ok_proc &= read_first_line(path, 0);
	}
	CHECK(ok_aff, "sched_setaffinity(tid): pthread_getaffinity_np reports it");
	/* qemu-user has no robust lists (ENOSYS natively). */
	if (getenv("GMP_TEST_EMULATOR_THREADS"))
		CHECK(1, "get_robust_list(tid): not under qemu-user");
	else
		CHECK(ok_rob, "get_robust_list(tid): that thread's list");
	CHECK(ok_prio, "getpriority(PRIO_PROCESS, tid) answers");
	CHECK(ok_proc, "/proc/self/task/TID, /proc/PID/task/TID, /proc/TID are there");
}

/* A child forked by a thread that is not the initial one. */
static void *forker(void *arg)
{
	(void)arg;
	pid_t c = fork();
	if (c == 0)
		_exit(gettid() == getpid() && syscall(SYS_gettid) == getpid() ? 0 : 1);
	int st = -1;
	waitpid(c, &st, 0);
	return (void *)(intptr_t)(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	handle_info(SIGUSR1, on_signal, SA_RESTART);
	handle_info(SIGUSR2, on_signal, SA_RESTART);
	pthread_barrier_init(&all_up, NULL, NT + 1);
	pthread_barrier_init(&checked, NULL, NT + 1);
	pthread_t th[NT];
	for (int i = 0; i < NT; i++)
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
	pthread_barrier_wait(&all_up);
	check_unique();
	check_signals();
	check_named_calls(th);
	CHECK(threads_are_gs(kernel_threads(), NT + 1), "the threads are kernel threads natively, Gs under the shim");
	pthread_barrier_wait(&checked);
	int stable = 1;
	for (int i = 0; i < NT; i++) {
		pthread_join(th[i], NULL);
		stable &= later_tids[i] == tids[i];
	}
	CHECK(stable, "a thread's TID stays the same");
	/* The kernel wakes the joiner from inside the thread's exit: its
	 * task may be there a moment longer. */
	int gone = 1;
	for (int i = 0; i < NT; i++) {
		int r = 0;
		for (int k = 0; k < 1000 && (r = tgkill(getpid(), tids[i], 0)) == 0; k++)
			pause_us(1000);
		gone &= r == -1 && errno == ESRCH;
	}
	CHECK(gone, "tgkill(pid, tid, 0) of a joined thread: ESRCH");
	pthread_t f;
	void *forked_ok = NULL;
	pthread_create(&f, NULL, forker, NULL);
	pthread_join(f, &forked_ok);
	CHECK(forked_ok != NULL, "fork from a thread: the child's gettid() is its process ID");
	CHECK(made_as_gs(NT + 1), "the threads were made as Gs under the shim");
	return failures != 0;
}
