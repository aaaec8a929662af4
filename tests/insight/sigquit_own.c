/* SIGQUIT ownership as the program sees it under the shim:
 *   1. sigaction(SIGQUIT, NULL, &old) reports SIG_DFL (the runtime's
 *      handler is not the program's business);
 *   2. a handler the program installs runs instead of the dump;
 *   3. SIG_DFL set again brings the runtime's default back: the dump and
 *      exit status 2 (check-sigquit-own checks that part).
 * Prints one line per step on stdout. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_quit(int sig)
{
	got = sig;
}

int main(void)
{
	struct sigaction old, sa;
	sigaction(SIGQUIT, NULL, &old);
	printf("initial action: %s\n", old.sa_handler == SIG_DFL && !(old.sa_flags & SA_SIGINFO) ? "default" : "other");
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_quit;
	sigaction(SIGQUIT, &sa, NULL);
	raise(SIGQUIT);
	printf("own handler ran: %s\n", got == SIGQUIT ? "yes" : "no");
	sigaction(SIGQUIT, NULL, &old);
	printf("reported action: %s\n", old.sa_handler == on_quit ? "own" : "other");
	sa.sa_handler = SIG_DFL;
	sigaction(SIGQUIT, &sa, NULL);
	fflush(stdout);
	raise(SIGQUIT);
	printf("survived SIG_DFL SIGQUIT\n");
	return 0;
}
