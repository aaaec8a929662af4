/* A signal that comes while a thread spins in pthread_spin_lock on a
 * lock that never comes free runs its handler there, and a handler that
 * ends the process ends it (POSIX pthread_spin_lock: signal handlers run
 * in a spinning thread; LTP's pthread_spin_lock/3-2). */
#include "../conform.h"
static void on_alarm(int sig)
{
	(void)sig;
	pass(); /* the spinning thread is in no stdio call */
}
int main(void)
{
	pthread_spinlock_t s;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	OK(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE));
	OK(pthread_spin_lock(&s));
	alarm(1);
	pthread_spin_lock(&s); /* never returns: the handler exits */
	CHECK(0);
	pass();
}
