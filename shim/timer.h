/* Timers for timed parks.  A single runtime-wide 4-ary heap ordered by
 * deadline (Go keeps one per P; that refinement belongs to the timers
 * issue).  Expired timers are run by findrunnable and by the M that sleeps
 * until the earliest deadline. */
#ifndef GMP_TIMER_H
#define GMP_TIMER_H

#include <stdbool.h>
#include <stdint.h>

struct g;

struct gmp_timer {
	int64_t when;       /* CLOCK_MONOTONIC ns */
	int index;          /* position in the heap, -1 when not queued */
	struct g *gp;       /* the G to wake */
	const void *waitaddr; /* wait queue the G is parked on, if any */
};

void gmp_timer_add(struct gmp_timer *t);
/* Returns true if the timer was removed before it fired. */
bool gmp_timer_del(struct gmp_timer *t);
/* Fires due timers; returns the next deadline or -1. */
int64_t gmp_timers_run(int64_t now);
int64_t gmp_timers_next(void);

#endif
