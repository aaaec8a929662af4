/* Distinct once controls are independent: each runs its own routine once
 * (POSIX pthread_once). */
#include "../conform.h"
static pthread_once_t o1 = PTHREAD_ONCE_INIT, o2 = PTHREAD_ONCE_INIT;
static int c1, c2;
static void i1(void) { c1++; }
static void i2(void) { c2++; }
int main(void)
{
	OK(pthread_once(&o1, i1));
	OK(pthread_once(&o2, i2));
	OK(pthread_once(&o1, i2));
	OK(pthread_once(&o2, i1));
	CHECK(c1 == 1 && c2 == 1);
	pass();
}
