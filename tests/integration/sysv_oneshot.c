/* One-shot handlers: signal() in a program compiled without _DEFAULT_SOURCE
 * is glibc's __sysv_signal (SA_RESETHAND | SA_NODEFER).  A process-directed
 * SIGALRM arriving while the only thread that takes it waits for a mutex
 * must run the handler exactly once and leave the disposition SIG_DFL.
 * (Under the shim the signal lands on another M and is forwarded to the
 * parked thread: the kernel's own reset would have made the forwarded
 * instance kill the process.) */
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled;
static volatile int held;

static void on_alarm(int sig)
{
	(void)sig;
	handled++;
}

static void *holder(void *arg)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_mutex_lock(&m);
	held = 1;
	while (handled == 0) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	struct timespec ts = { 0, 50000000 };
	nanosleep(&ts, NULL);
	pthread_mutex_unlock(&m);
	return arg;
}

int main(void)
{
	signal(SIGALRM, on_alarm);
	struct sigaction sa;
	sigaction(SIGALRM, NULL, &sa);
	printf("signal() is one-shot here: %d\n", (sa.sa_flags & SA_RESETHAND) != 0);
	pthread_t t;
	pthread_create(&t, NULL, holder, NULL);
	while (!held) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_mutex_lock(&m); /* parked here when SIGALRM comes */
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	sigaction(SIGALRM, NULL, &sa);
	printf("handler ran %d time(s)\n", (int)handled);
	printf("disposition afterwards SIG_DFL: %d\n", sa.sa_handler == SIG_DFL && !(sa.sa_flags & SA_SIGINFO));
	return 0;
}
