/* Deferred cancellation of a thread waiting in each kind of cancellation
 * point, and of one blocked in a call the shim cannot park (a read on a
 * pipe made behind its back, which blocks its OS thread in the kernel).
 * Each target pushes a C cleanup handler (pthread_cleanup_push, no
 * -fexceptions) and announces itself before it waits; the canceller waits
 * a little so that the target is usually parked already (the result is the
 * same if it is not: the point's entry acts).  The condition-variable
 * target's handler checks that it holds the mutex again (POSIX), with an
 * error-checking mutex whose unlock fails for anyone but the owner.  The
 * process-shared condition variable and semaphore wait in glibc's own code
 * (which makes its futex wait asynchronously cancelable), and fgets on a
 * pipe blocks inside glibc's own read, a cancellation point of glibc's.  A
 * file lock wait (F_OFD_SETLKW) blocks the OS thread in the kernel. */
#define _GNU_SOURCE /* F_OFD_SETLKW */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <netinet/in.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static sem_t started;
static pthread_mutex_t cmu, psmu;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, pscv;
static sem_t psem;
static FILE *fin;
static int lockfd;
static int fpipe[2];
static int pfd[2], rawfd[2], lfd;
static sem_t never;
static pthread_t forever_thread;

static void cleanup(void *arg)
{
	printf("  cleanup handler: %s\n", (const char *)arg);
}

static void cond_cleanup(void *arg)
{
	(void)arg;
	int r = pthread_mutex_unlock(&cmu);
	printf("  cleanup handler: cond, mutex %s\n", r == 0 ? "held again" : "NOT held");
}

static void ps_cleanup(void *arg)
{
	(void)arg;
	int r = pthread_mutex_unlock(&psmu);
	printf("  cleanup handler: process-shared cond, mutex %s\n", r == 0 ? "held again" : "NOT held");
}

static void *forever(void *arg)
{
	(void)arg;
	sem_wait(&never);
	return NULL;
}

static void waitin(const char *what)
{
	char b[64];
	if (strcmp(what, "pthread_cond_wait") == 0) {
		pthread_mutex_lock(&cmu);
		pthread_cleanup_push(cond_cleanup, NULL);
		sem_post(&started);
		for (;;)
			pthread_cond_wait(&cv, &cmu);
		pthread_cleanup_pop(0);
	} else if (strcmp(what, "pthread_cond_timedwait") == 0) {
		pthread_mutex_lock(&cmu);
		pthread_cleanup_push(cond_cleanup, NULL);
		sem_post(&started);
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 3600;
		for (;;)
			pthread_cond_timedwait(&cv, &cmu, &ts);
		pthread_cleanup_pop(0);
	}
	if (strcmp(what, "pthread_cond_wait (process-shared)") == 0) {
		pthread_mutex_lock(&psmu);
		pthread_cleanup_push(ps_cleanup, NULL);
		sem_post(&started);
		for (;;)
			pthread_cond_wait(&pscv, &psmu);
		pthread_cleanup_pop(0);
	}
	sem_post(&started);
	if (strcmp(what, "sem_wait (process-shared)") == 0)
		sem_wait(&psem);
	else if (strcmp(what, "fcntl F_OFD_SETLKW") == 0) {
		struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
		fcntl(lockfd, F_OFD_SETLKW, &fl);
	} else if (strcmp(what, "fgets (a cancellation point inside glibc)") == 0)
		fgets(b, sizeof b, fin);
	else if (strcmp(what, "pthread_join") == 0)
		pthread_join(forever_thread, NULL);
	else if (strcmp(what, "sem_wait") == 0)
		sem_wait(&never);
	else if (strcmp(what, "read (pipe)") == 0)
		read(pfd[0], b, sizeof b);
	else if (strcmp(what, "read (blocked in the kernel)") == 0)
		read(rawfd[0], b, sizeof b);
	else if (strcmp(what, "sleep") == 0)
		sleep(3600);
	else if (strcmp(what, "nanosleep") == 0)
		nanosleep(&(struct timespec){ 3600, 0 }, NULL);
	else if (strcmp(what, "poll") == 0)
		poll(&(struct pollfd){ .fd = pfd[0], .events = POLLIN }, 1, -1);
	else if (strcmp(what, "select") == 0) {
		fd_set r;
		FD_ZERO(&r);
		FD_SET(pfd[0], &r);
		select(pfd[0] + 1, &r, NULL, NULL, NULL);
	} else if (strcmp(what, "sigwait") == 0) {
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		int sig;
		sigwait(&s, &sig);
	} else if (strcmp(what, "accept") == 0)
		accept(lfd, NULL, NULL);
	else if (strcmp(what, "pause") == 0)
		pause();
	else if (strcmp(what, "waitpid") == 0)
		waitpid(-1, NULL, 0);
	printf("  %s returned: WRONG\n", what);
}

static void *target(void *arg)
{
	const char *what = arg;
	pthread_cleanup_push(cleanup, arg);
	waitin(what);
	pthread_cleanup_pop(0);
	return (void *)1;
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&cmu, &ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&psmu, &ma);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_cond_init(&pscv, &ca);
	sem_init(&psem, 1, 0);
	sem_init(&started, 0, 0);
	sem_init(&never, 0, 0);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	if (pipe(pfd) != 0 || syscall(SYS_pipe2, rawfd, 0) != 0) {
		perror("pipe");
		return 1;
	}
	if (pipe(fpipe) != 0 || (fin = fdopen(fpipe[0], "r")) == NULL)
		return 1;
	/* An open file description's lock blocks another description's,
	 * even in the same process. */
	char tmpl[] = "/tmp/cancel_points.XXXXXX";
	int held = mkstemp(tmpl);
	if (held < 0 || (lockfd = open(tmpl, O_RDWR)) < 0)
		return 1;
	unlink(tmpl);
	struct flock hl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(held, F_OFD_SETLK, &hl) != 0) {
		perror("F_OFD_SETLK");
		return 1;
	}
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (bind(lfd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(lfd, 4) != 0) {
		perror("listen");
		return 1;
	}
	pthread_create(&forever_thread, NULL, forever, NULL);
	/* A child that outlives the waitpid target's wait. */
	int cpipe[2];
	if (pipe(cpipe) != 0)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		char c;
		close(cpipe[1]);
		read(cpipe[0], &c, 1);
		_exit(0);
	}
	close(cpipe[0]);

	static const char *kinds[] = {
		"pthread_cond_wait", "pthread_cond_timedwait", "pthread_join", "sem_wait", "read (pipe)",
		"read (blocked in the kernel)", "sleep", "nanosleep", "poll", "select", "sigwait", "accept",
		"pause", "waitpid", "pthread_cond_wait (process-shared)", "sem_wait (process-shared)",
		"fgets (a cancellation point inside glibc)", "fcntl F_OFD_SETLKW",
	};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		pthread_t t;
		printf("%s:\n", kinds[i]);
		if (pthread_create(&t, NULL, target, (void *)kinds[i]) != 0)
			return 1;
		sem_wait(&started);
		nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
		int rc = pthread_cancel(t);
		void *res = NULL;
		int jr = pthread_join(t, &res);
		printf("  cancel %d, join %d, result %s\n", rc, jr, res == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "WRONG");
	}
	/* The cancelled fgets left the stream unlocked (glibc's own cleanup). */
	char line[16] = "";
	if (write(fpipe[1], "line\n", 5) != 5 || fgets(line, sizeof line, fin) == NULL)
		return 1;
	printf("the stream after the cancelled fgets: %s", line);
	close(cpipe[1]);
	waitpid(child, NULL, 0);
	pthread_cancel(forever_thread);
	void *res;
	pthread_join(forever_thread, &res);
	printf("the joined-upon thread: %s\n", res == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "WRONG");
	return 0;
}
