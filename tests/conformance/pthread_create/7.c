/* The floating-point environment of the new thread is inherited from the
 * creating thread (POSIX pthread_create). */
#include "../conform.h"
#include <fenv.h>
static void *fn(void *a) { return (void *)(intptr_t)fegetround(); }
int main(void)
{
	CHECK(fesetround(FE_UPWARD) == 0);
	CHECK(join(spawn(fn, NULL)) == (void *)(intptr_t)FE_UPWARD);
	CHECK(fesetround(FE_TOWARDZERO) == 0);
	CHECK(join(spawn(fn, NULL)) == (void *)(intptr_t)FE_TOWARDZERO);
	pass();
}
