/* Thread names as Linux keeps them, per thread: a name set with
 * prctl(PR_SET_NAME) is what PR_GET_NAME and pthread_getname_np report for
 * that thread and no other, also after the threads have been switched
 * around (more threads than CPUs: under the shim they share Ms); a name
 * is cut to 15 bytes; a new thread starts with its creator's name; and
 * the initial thread's name is the process's (/proc/self/comm, what ps
 * and pgrep see). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "check.h"

#define NT 12

static pthread_barrier_t named, looked;
static int own_ok[NT], inherited_ok = 1;

static void proc_comm(char *buf)
{
	int fd = open("/proc/self/comm", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, 15) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n > 0 ? n : 0] = '\0';
}

static void *child(void *arg)
{
	char got[16] = "";
	prctl(PR_GET_NAME, got);
	inherited_ok = strcmp(got, (const char *)arg) == 0;
	return NULL;
}

static void *worker(void *arg)
{
	int i = (int)(intptr_t)arg;
	char want[16], got[16] = "", got2[16] = "";
	snprintf(want, sizeof want, "w-%d", i);
	prctl(PR_SET_NAME, want);
	pthread_barrier_wait(&named);
	/* every other thread has named itself meanwhile, on the same Ms */
	for (int k = 0; k < 5; k++) {
		sched_yield();
		pause_us(300);
	}
	prctl(PR_GET_NAME, got);
	pthread_getname_np(pthread_self(), got2, sizeof got2);
	own_ok[i] = strcmp(got, want) == 0 && strcmp(got2, want) == 0;
	if (i == 0) {
		/* a thread made now starts with this one's name */
		pthread_t c;
		pthread_create(&c, NULL, child, want);
		pthread_join(c, NULL);
	}
	pthread_barrier_wait(&looked);
	return NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	char got[16] = "";
	prctl(PR_SET_NAME, "tn-main");
	proc_comm(got);
	CHECK(strcmp(got, "tn-main") == 0, "the initial thread's PR_SET_NAME names the process");
	pthread_barrier_init(&named, NULL, NT + 1);
	pthread_barrier_init(&looked, NULL, NT + 1);
	pthread_t th[NT];
	for (int i = 0; i < NT; i++)
		pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
	pthread_barrier_wait(&named);
	int others = 1;
	for (int i = 0; i < NT; i++) {
		char want[16];
		snprintf(want, sizeof want, "w-%d", i);
		others &= pthread_getname_np(th[i], got, sizeof got) == 0 && strcmp(got, want) == 0;
	}
	CHECK(others, "pthread_getname_np of each thread: the name it set with prctl");
	pthread_barrier_wait(&looked);
	int own = 1;
	for (int i = 0; i < NT; i++) {
		pthread_join(th[i], NULL);
		own &= own_ok[i];
	}
	CHECK(own, "PR_GET_NAME and pthread_getname_np in each thread: its own name");
	CHECK(inherited_ok, "a new thread starts with its creator's name");
	prctl(PR_GET_NAME, got);
	CHECK(strcmp(got, "tn-main") == 0, "the initial thread kept its name");
	prctl(PR_SET_NAME, "a-name-longer-than-15");
	prctl(PR_GET_NAME, got);
	CHECK(strcmp(got, "a-name-longer-t") == 0, "PR_SET_NAME cuts a name to 15 bytes");
	pthread_setname_np(pthread_self(), "tn-again");
	proc_comm(got);
	CHECK(strcmp(got, "tn-again") == 0, "pthread_setname_np of the initial thread names the process");
	CHECK(made_as_gs(NT + 1), "the threads were made as Gs under the shim");
	return failures != 0;
}
