/* The per-fd poll descriptors, indexed by fd number in chunks that are
 * mapped on first use and never freed: a G parked on a descriptor's word
 * can rely on it staying put. */
#include <string.h>
#include <sys/mman.h>

#include "foreign.h"
#include "lock.h"
#include "netpoll.h"

#define PD_CHUNK 4096
#define PD_NCHUNK 256 /* fds up to 2^20, Linux's default nr_open */

static struct polldesc *chunks[PD_NCHUNK];

/* Not for a task with an fd table of its own (gmp_fd_alien): what it
 * opens is not polled, and what it closes or changes is its copy only;
 * it still looks up the state of the fds it inherited, to know which of
 * their descriptions the runtime made non-blocking. */
struct polldesc *gmp_pd_slot(int fd)
{
	if (fd < 0 || fd >= PD_CHUNK * PD_NCHUNK || gmp_fd_alien)
		return NULL;
	struct polldesc **cp = &chunks[fd / PD_CHUNK];
	struct polldesc *c = __atomic_load_n(cp, __ATOMIC_ACQUIRE);
	if (c == NULL) {
		c = mmap(NULL, sizeof(struct polldesc) * PD_CHUNK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (c == MAP_FAILED)
			return NULL;
		struct polldesc *none = NULL;
		if (!__atomic_compare_exchange_n(cp, &none, c, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			munmap(c, sizeof(struct polldesc) * PD_CHUNK);
			c = none;
		}
	}
	return &c[fd % PD_CHUNK];
}

struct polldesc *gmp_pd_lookup(int fd)
{
	if (fd < 0 || fd >= PD_CHUNK * PD_NCHUNK)
		return NULL;
	struct polldesc *c = __atomic_load_n(&chunks[fd / PD_CHUNK], __ATOMIC_ACQUIRE);
	if (c == NULL)
		return NULL;
	struct polldesc *pd = &c[fd % PD_CHUNK];
	return __atomic_load_n(&pd->flags, __ATOMIC_ACQUIRE) & PD_POLLED ? pd : NULL;
}

void gmp_pd_foreach(void (*fn)(int fd, struct polldesc *pd, void *arg), void *arg)
{
	for (int i = 0; i < PD_NCHUNK; i++) {
		struct polldesc *c = chunks[i];
		if (c == NULL)
			continue;
		for (int k = 0; k < PD_CHUNK; k++)
			if (c[k].flags & PD_POLLED)
				fn(i * PD_CHUNK + k, &c[k], arg);
	}
}

void gmp_pd_drop_waiters(void)
{
	/* Any slot may hold nodes or counted waiters, polled or not: a G
	 * unlinks its nodes only when it wakes, and the Gs of a fork child's
	 * parent never will. */
	for (int i = 0; i < PD_NCHUNK; i++) {
		struct polldesc *c = chunks[i];
		if (c == NULL)
			continue;
		for (int k = 0; k < PD_CHUNK; k++) {
			c[k].wlock = (struct mutex){ 0 };
			c[k].waiters = NULL;
			memset(c[k].nwait, 0, sizeof c[k].nwait);
		}
	}
}
