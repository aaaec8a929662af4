/* A PI futex owned by a thread that is no G (made through
 * dlsym(RTLD_NEXT, "pthread_create"), as jemalloc's background thread):
 * it dies holding the word while one of our threads waits in LOCK_PI.  The
 * kernel gives the waiter the lock with FUTEX_OWNER_DIED; under the shim
 * the waiter finds the owner gone at its periodic look and does the same. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

int foreign_create(pthread_t *t, void *(*fn)(void *), void *arg);
int foreign_join(pthread_t t, void **ret);

static uint32_t word;
static int ready, go;
static long waiter_ret = 1;
static uint32_t waiter_saw;

static long futex(int op)
{
	long r = syscall(SYS_futex, &word, op | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
	return r < 0 ? -errno : r;
}

static void *owner(void *arg)
{
	(void)arg;
	if (futex(FUTEX_LOCK_PI) == 0)
		__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL; /* exits holding the word */
}

static void *waiter(void *arg)
{
	(void)arg;
	waiter_ret = futex(FUTEX_LOCK_PI);
	waiter_saw = word;
	futex(FUTEX_UNLOCK_PI);
	return NULL;
}

int main(void)
{
	pthread_t f, w;
	if (foreign_create(&f, owner, NULL) != 0)
		return 1;
	while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		usleep(1000);
	pthread_create(&w, NULL, waiter, NULL);
	while (!(__atomic_load_n(&word, __ATOMIC_ACQUIRE) & FUTEX_WAITERS))
		usleep(1000);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	foreign_join(f, NULL);
	pthread_join(w, NULL);
	CHECK(waiter_ret == 0 && (waiter_saw & FUTEX_OWNER_DIED),
	      "PI owner (no G) dies holding it: the waiter gets it with FUTEX_OWNER_DIED");
	CHECK(word == 0, "... and unlocks it");
	return failures != 0;
}
