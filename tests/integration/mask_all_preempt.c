/* Every thread blocks every signal (a server's worker child): a thread
 * that spins without a single call must still be preempted so that the
 * others run, at one P too, since the runtime's signal gets through
 * whatever the program blocks.  The threads still see the mask they set. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#include "check.h"

static volatile int done;
static atomic_int progressed;

static void *spinner(void *arg)
{
	(void)arg;
	spin_until(&done);
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20; i++) {
		usleep(1000);
		atomic_fetch_add(&progressed, 1);
	}
	return NULL;
}

int main(void)
{
	sigset_t all, now;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_t s[2], w[3];
	for (int i = 0; i < 2; i++)
		pthread_create(&s[i], NULL, spinner, NULL);
	for (int i = 0; i < 3; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(w[i], NULL);
	CHECK(atomic_load(&progressed) == 60, "threads ran beside spinners that block every signal");
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	CHECK(sigismember(&now, SIGURG) && sigismember(&now, SIGUSR1), "the mask reads back as set");
	done = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(s[i], NULL);
	return failures != 0;
}
