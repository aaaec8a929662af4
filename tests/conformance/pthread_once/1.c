/* The first call of pthread_once with a given control runs init_routine;
 * later calls do not (POSIX pthread_once). */
#include "../conform.h"
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int calls;
static void init(void) { calls++; }
int main(void)
{
	OK(pthread_once(&once, init));
	OK(pthread_once(&once, init));
	OK(pthread_once(&once, init));
	CHECK(calls == 1);
	pass();
}
