/* Alone in its file: glibc 2.34+'s <pthread.h> redirects pthread_yield to
 * sched_yield, and a file that includes it cannot define the old name. */
#include <sched.h>

#include "export.h"

/* Declared here alone: no header may declare it beside <pthread.h>'s
 * redirect. */
int pthread_yield(void);

GMP_EXPORT int pthread_yield(void)
{
	return sched_yield();
}
