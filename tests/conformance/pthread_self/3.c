/* The ID pthread_self returns in main can be used by another thread to act
 * on main (here: send it a signal that main's handler then sees) (POSIX
 * pthread_self, pthread_kill). */
#include "../conform.h"
static volatile sig_atomic_t hit;
static pthread_t main_t;
static void on(int s) { hit = pthread_equal(pthread_self(), main_t) ? 1 : 2; }
static void *fn(void *a) { return (void *)(intptr_t)pthread_kill(main_t, SIGUSR1); }
int main(void)
{
	sigset_t s, old;
	signal(SIGUSR1, on);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, &old);
	main_t = pthread_self();
	CHECK(join(spawn(fn, NULL)) == 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	CHECK(hit == 1);
	pass();
}
