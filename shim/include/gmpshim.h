/* gmpshim.h: what a program can ask the gmpshim runtime it runs under.
 *
 * Nothing here needs linking against the shim: the helpers look the
 * shim's entry points up at run time (dlsym(RTLD_DEFAULT)), so the same
 * binary runs natively, where they report that no shim is present.
 * Link with -ldl on glibc older than 2.34. */
#ifndef GMPSHIM_H
#define GMPSHIM_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GMPSHIM_NWAIT 16

/* Counters since start-up, summed over every P.  Fields are only ever
 * appended; size says how much of the structure the shim filled. */
struct gmpshim_stats {
	uint32_t size;
	uint32_t gomaxprocs;
	uint64_t threads_created;    /* pthread_create calls that made a G */
	uint64_t switches;           /* Gs started or resumed on an M */
	uint64_t steals;             /* Gs taken from another P's run queue */
	uint64_t global_queue_takes; /* takes from the global run queue */
	uint64_t preemptions;        /* Gs preempted while running */
	uint64_t syscall_handoffs;   /* Ps retaken from a blocking call */
	uint64_t netpoll_wakeups;    /* Gs readied by the network poller */
	uint64_t park[GMPSHIM_NWAIT];   /* parks, by wait reason */
	uint64_t unpark[GMPSHIM_NWAIT]; /* resumptions after a park, by reason */
	uint64_t os_threads;         /* OS threads the runtime runs on now (Ms,
	                                sysmon, template thread); Ms are never
	                                freed, so also the most it ever had */
	uint64_t wake_preemptions;   /* preemption requests made early, for a
	                                thread woken while every P was busy */
	uint64_t kernel_waits;       /* waits a thread made in the kernel, its P
	                                given up: an event loop's epoll_wait on
	                                its own epoll fd, a sleep */
	uint64_t kernel_sleeps;      /* ... of them sleeps */
	uint64_t drained_read_parks; /* blocking reads of a byte stream that a
	                                short read had emptied, parked without
	                                the read that would say EAGAIN */
	uint64_t polled_kept;        /* threads readied together by the network
	                                poller that waited for the poller's own
	                                M, another P idle, rather than wake an M */
	uint64_t polled_kept_woken;  /* ... for which an M was woken after all:
	                                that M had not reached them in time */
	uint64_t async_preemptions;  /* preemptions that stopped a thread in
	                                the program's own code (the signal's),
	                                not at its next call into the runtime */
	uint64_t spin_preemptions;   /* ... of those, in a loop that spins
	                                with the CPU's spin-wait hint */
};

/* Exported by libgmpshim.so. */
int gmpshim_read_stats(struct gmpshim_stats *out, size_t size);
const char *gmpshim_wait_reason_name(int reason);

/* Fills *st; returns 0, or -1 when the program does not run under the shim. */
static inline int gmpshim_stats(struct gmpshim_stats *st)
{
	int (*fn)(struct gmpshim_stats *, size_t);
	*(void **)&fn = dlsym(RTLD_DEFAULT, "gmpshim_read_stats");
	return fn ? fn(st, sizeof *st) : -1;
}

/* The name of wait reason i ("mutex lock", "cond wait", ...), or NULL for
 * an unused slot or without the shim. */
static inline const char *gmpshim_wait_reason(int i)
{
	const char *(*fn)(int);
	*(void **)&fn = dlsym(RTLD_DEFAULT, "gmpshim_wait_reason_name");
	return fn ? fn(i) : NULL;
}

#ifdef __cplusplus
}
#endif

#endif
