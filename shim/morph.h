/* Wait morphing (morph.c): notified condvar waiters whose mutex is held
 * move onto that mutex's wait queue instead of waking up to park again. */
#ifndef GMP_MORPH_H
#define GMP_MORPH_H

#include "runtime.h"

/* Takes notified waiters off every queue (G_WAITING, linked through
 * schedlink, each with g->condlock set or NULL), queues those whose mutex
 * is held behind it, and returns the rest, to be readied by the caller. */
struct g *gmp_morph(struct g *list);

#endif
