/* The scheduler's global state, alone in its file so that unit tests can
 * link the run queues without the rest of the runtime. */
#include "runtime.h"

struct sched sched;
struct p *allp;
