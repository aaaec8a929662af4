/* An init routine may itself call pthread_once on another control (POSIX
 * pthread_once). */
#include "../conform.h"
static pthread_once_t outer = PTHREAD_ONCE_INIT, inner = PTHREAD_ONCE_INIT;
static char order[4];
static int n;
static void in(void) { order[n++] = 'i'; }
static void out(void) { pthread_once(&inner, in); order[n++] = 'o'; }
int main(void)
{
	OK(pthread_once(&outer, out));
	OK(pthread_once(&inner, in));
	CHECK(strcmp(order, "io") == 0);
	pass();
}
