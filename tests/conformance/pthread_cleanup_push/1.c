/* pthread_cleanup_pop with a non-zero argument removes the top handler and
 * runs it; with zero it removes it without running it (POSIX
 * pthread_cleanup_pop). */
#include "../conform.h"
static int ran[2];
static void h(void *a) { ran[(intptr_t)a]++; }
int main(void)
{
	pthread_cleanup_push(h, (void *)0);
	pthread_cleanup_push(h, (void *)1);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(1);
	CHECK(ran[0] == 1 && ran[1] == 0);
	pass();
}
