/* Returning from start_routine is an implicit pthread_exit with the return
 * value as exit status, which pthread_join reports (POSIX pthread_create). */
#include "../conform.h"
static int token;
static void *fn(void *a) { return &token; }
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == &token);
	pass();
}
