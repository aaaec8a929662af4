/* Thread-specific data: the key table, each thread's values (in its G)
 * and their destructors at thread exit. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "foreign.h"
#include "keys.h"
#include "runtime.h"
#include "sys.h"

#define NKEYS (GMP_KEY_1ST * GMP_KEY_L2)
_Static_assert(NKEYS == PTHREAD_KEYS_MAX, "key table size");

static struct {
	uintptr_t seq;
	void (*destr)(void *);
} keys[NKEYS];

static inline bool key_used(uintptr_t seq)
{
	return seq & 1;
}

int gmp_key_create(pthread_key_t *key, void (*destr)(void *))
{
	for (int i = 0; i < NKEYS; i++) {
		uintptr_t seq = __atomic_load_n(&keys[i].seq, __ATOMIC_ACQUIRE);
		if (key_used(seq))
			continue;
		if (__atomic_compare_exchange_n(&keys[i].seq, &seq, seq + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			keys[i].destr = destr;
			*key = (pthread_key_t)i;
			return 0;
		}
	}
	return EAGAIN;
}

int gmp_key_delete(pthread_key_t key)
{
	if (key >= NKEYS)
		return EINVAL;
	uintptr_t seq = __atomic_load_n(&keys[key].seq, __ATOMIC_ACQUIRE);
	if (!key_used(seq) ||
	    !__atomic_compare_exchange_n(&keys[key].seq, &seq, seq + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return EINVAL;
	return 0;
}

static struct gmp_keyslot *slot(struct g *gp, pthread_key_t key, bool create)
{
	if (key < GMP_KEY_1ST)
		return &gp->specific_1st[key];
	struct gmp_keyslot **block = &gp->specific[key / GMP_KEY_1ST];
	if (*block == NULL) {
		if (!create)
			return NULL;
		*block = calloc(GMP_KEY_1ST, sizeof **block);
		if (*block == NULL)
			return NULL;
	}
	return &(*block)[key % GMP_KEY_1ST];
}

/* Threads that are not Gs also use keys: the sanitizers' and glibc's own
 * helper threads (SIGEV_THREAD timers, aio), a library's threads made
 * through dlsym(RTLD_NEXT, "pthread_create"), an idle M running a signal
 * handler.  Their values live in the thread's foreign G (shim/foreign.c),
 * whose destructors run when the thread exits. */

/* Before the shim's constructor a sanitizer runtime (ASan's start-up runs
 * from the program's preinit_array, before libc's own initialisation)
 * already stores its per-thread state under a key.  Starting the runtime
 * from there would read the environment before libc has it, so the
 * initial thread's values go straight into main's G, which gmp_init then
 * adopts with them. */
static bool initial_thread(void)
{
	return gmp_syscall(SYS_gettid, 0, 0, 0) == gmp_syscall(SYS_getpid, 0, 0, 0);
}

static struct g *key_g(bool create)
{
	struct g *gp = getg();
	if (gp == NULL && !__atomic_load_n(&gmp_initialized, __ATOMIC_ACQUIRE) && initial_thread())
		return &gmp_main_g;
	if (gp == NULL)
		gp = gmp_foreign_g(create);
	return gp;
}

void *gmp_getspecific(pthread_key_t key)
{
	if (key >= NKEYS)
		return NULL;
	struct g *gp = key_g(false);
	struct gmp_keyslot *s = gp ? slot(gp, key, false) : NULL;
	if (s == NULL || s->seq != __atomic_load_n(&keys[key].seq, __ATOMIC_RELAXED))
		return NULL;
	return s->value;
}

int gmp_setspecific(pthread_key_t key, const void *value)
{
	if (key >= NKEYS)
		return EINVAL;
	uintptr_t seq = __atomic_load_n(&keys[key].seq, __ATOMIC_ACQUIRE);
	if (!key_used(seq))
		return EINVAL;
	struct g *gp = key_g(true);
	struct gmp_keyslot *s = gp ? slot(gp, key, true) : NULL;
	if (s == NULL)
		return ENOMEM;
	s->seq = seq;
	s->value = (void *)value;
	gp->specific_written = true;
	if (value)
		gp->specific_used = true;
	return 0;
}

/* At thread exit: call destructors for non-NULL values, repeating while
 * destructors store new values, at most PTHREAD_DESTRUCTOR_ITERATIONS
 * rounds; then free the second-level blocks. */
void gmp_keys_run_destructors(struct g *gp)
{
	for (int round = 0; gp->specific_used && round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
		gp->specific_used = false;
		for (int k = 0; k < NKEYS; k++) {
			struct gmp_keyslot *s = slot(gp, (pthread_key_t)k, false);
			if (s == NULL) {
				k += GMP_KEY_1ST - 1 - k % GMP_KEY_1ST;
				continue;
			}
			uintptr_t seq = __atomic_load_n(&keys[k].seq, __ATOMIC_ACQUIRE);
			void *v = s->value;
			if (v == NULL || s->seq != seq || !key_used(seq))
				continue;
			s->value = NULL;
			void (*destr)(void *) = keys[k].destr;
			if (destr)
				destr(v);
		}
	}
	/* Only what a thread wrote: a G's key slots are on its cold page. */
	if (!gp->specific_written)
		return;
	for (int i = 0; i < GMP_KEY_L2; i++) {
		if (gp->specific[i]) {
			free(gp->specific[i]);
			gp->specific[i] = NULL;
		}
	}
	memset(gp->specific_1st, 0, sizeof gp->specific_1st);
	gp->specific_used = false;
	gp->specific_written = false;
}
