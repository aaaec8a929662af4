/* The scheduler's global state, alone in its file so that unit tests can
 * link the run queues without the rest of the runtime. */
#include "runtime.h"

/* Cache-line aligned: which fields share a line with which decides what a
 * read of sched.runqsize (every yield) pays for the other Ps' writes. */
struct sched sched __attribute__((aligned(64)));
struct p *allp;
/* getg(): per G, since every G has its own static TLS (compat/tls.c). */
__thread struct g *gmp_curg_tls;
