/* pthread_testcancel with no cancel request pending has no effect (POSIX
 * pthread_testcancel). */
#include "../conform.h"
static void *fn(void *a)
{
	for (int i = 0; i < 1000; i++)
		pthread_testcancel();
	return (void *)1;
}
int main(void)
{
	pthread_testcancel();
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	pass();
}
