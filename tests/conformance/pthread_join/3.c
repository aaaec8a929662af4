/* A NULL value_ptr is allowed: the join succeeds and the exit value is
 * discarded (POSIX pthread_join). */
#include "../conform.h"
static void *fn(void *a) { return (void *)1; }
int main(void)
{
	OK(pthread_join(spawn(fn, NULL), NULL));
	pass();
}
