/* The alternate signal stack is not inherited: a new thread starts with
 * none even when its creator has one (POSIX pthread_create). */
#include "../conform.h"
static void *fn(void *a)
{
	stack_t ss;
	sigaltstack(NULL, &ss);
	return (void *)(intptr_t)((ss.ss_flags & SS_DISABLE) != 0);
}
int main(void)
{
	static char altstack[1 << 16];
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
	CHECK(sigaltstack(&ss, NULL) == 0);
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	pass();
}
