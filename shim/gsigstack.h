/* Each M's own alternate signal stack (Go's gsignal), gsigstack.c. */
#ifndef GMP_GSIGSTACK_H
#define GMP_GSIGSTACK_H

#include "runtime.h"

void gmp_gsignal_alloc(struct m *mp);
void gmp_gsignal_install(struct m *mp);
void gmp_altstack_to_uc(const struct m *mp, void *uc);

#endif
