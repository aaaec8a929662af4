/* The process exits with status 0 after its last thread ends through
 * pthread_exit, regardless of the value passed (POSIX pthread_exit). */
#include "../conform.h"
static sem_t go;
static void *fn(void *a)
{
	sem_wait_ok(&go);
	shim_present_or_fail();
	printf("PASS\n");
	fflush(stdout);
	pthread_exit((void *)3);
}
int main(void)
{
	sem_init(&go, 0, 0);
	spawn(fn, NULL);
	sem_post(&go);
	pthread_exit((void *)5);
}
