/* pthread_exit ends the calling thread and makes value_ptr available to a
 * joiner, also when called from a nested function (POSIX pthread_exit). */
#include "../conform.h"
static int token;
static void deep(int n);
static void (*volatile again)(int) = deep;
static void deep(int n)
{
	if (n > 0)
		again(n - 1);
	pthread_exit(&token);
}
static void *fn(void *a) { deep(10); return NULL; }
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == &token);
	pass();
}
