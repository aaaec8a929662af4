/* pthread_join stores in *value_ptr the value the target passed to
 * pthread_exit (POSIX pthread_join). */
#include "../conform.h"
static int token;
static void *fn(void *a) { pthread_exit(&token); }
int main(void)
{
	pthread_t t = spawn(fn, NULL);
	void *v = NULL;
	OK(pthread_join(t, &v));
	CHECK(v == &token);
	pass();
}
