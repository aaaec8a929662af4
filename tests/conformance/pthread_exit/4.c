/* pthread_exit in main ends only the main thread: the other threads run on,
 * and the process exits with status 0 when the last thread ends (POSIX
 * pthread_exit: process exits as if exit(0) after the last thread). */
#include "../conform.h"
static pthread_t main_t;
static void *fn(void *a)
{
	/* Only a terminated main thread can be joined from here. */
	if (pthread_join(main_t, NULL) != 0)
		FAIL("join of main");
	shim_present_or_fail();
	printf("PASS\n");
	fflush(stdout);
	return NULL;
}
int main(void)
{
	main_t = pthread_self();
	spawn(fn, NULL);
	pthread_exit(NULL);
}
