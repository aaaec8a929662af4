/* Telling valgrind and the sanitizers about G switches (sanitizer.c).
 * Every hook is one predictable branch when none of them is present. */
#ifndef GMP_SANITIZER_H
#define GMP_SANITIZER_H

#include <stddef.h>

struct gmp_san {
	int active; /* ASan runtime found */
	void (*asan_start)(void **fake_save, const void *bottom, size_t size);
	void (*asan_finish)(void *fake_save, const void **bottom_old, size_t *size_old);
};
extern struct gmp_san gmp_san;

/* Right before gmp_swap to a context whose stack is [lo, lo+size);
 * fake_save keeps the leaving side's ASan fake stack. */
static inline void gmp_san_before_switch(void **fake_save, const void *lo, size_t size)
{
	if (__builtin_expect(gmp_san.active, 0))
		gmp_san.asan_start(fake_save, lo, size);
}

/* First thing on the side that was switched to. */
static inline void gmp_san_after_switch(void *fake_save)
{
	if (__builtin_expect(gmp_san.active, 0) && gmp_san.asan_finish)
		gmp_san.asan_finish(fake_save, NULL, NULL);
}

struct g;
struct m;
/* A G got a stack (new or reused, maybe a different user stack). */
void gmp_san_g_new(struct g *gp);
/* An M region was mapped: its g0 stack. */
void gmp_san_m_new(struct m *mp);
/* The stack of a g0: for the switch hooks. */
/* Looks the sanitizer runtimes up; once, at start. */
void gmp_sanitizer_init(void);
void gmp_san_g0_stack(struct m *mp, const void **lo, size_t *size);

#endif
