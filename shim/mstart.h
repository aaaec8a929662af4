/* Making Ms (mstart.c): OS threads made with the real pthread_create, and
 * the template thread that makes them for callers that cannot. */
#ifndef GMP_MSTART_H
#define GMP_MSTART_H

#include <stdbool.h>

#include "fork.h"
#include "runtime.h"

void gmp_mstart_init(void);
struct m *allocm(void);
void newm(struct p *pp, bool spinning);
bool gmp_start_runtime_thread(void *(*fn)(void *));
void gmp_start_templatethread(void);
void newm_fork(enum gmp_fork_phase phase);

#endif
