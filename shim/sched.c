/* The scheduler's global state, alone in its file so that unit tests can
 * link the run queues without the rest of the runtime. */
#include "runtime.h"

struct sched sched;
struct p *allp;
/* getg(): per G, since every G has its own static TLS (compat/tls.c). */
__thread struct g *gmp_curg_tls;
