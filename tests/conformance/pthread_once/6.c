/* A once control with init already run lets every thread through without
 * running the routine again (POSIX pthread_once). */
#include "../conform.h"
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int calls;
static void init(void) { calls++; }
static void *fn(void *a) { return (void *)(intptr_t)pthread_once(&once, init); }
int main(void)
{
	OK(pthread_once(&once, init));
	for (int i = 0; i < 4; i++)
		CHECK(join(spawn(fn, NULL)) == 0);
	CHECK(calls == 1);
	pass();
}
