/* At thread exit, a key's destructor is called with the thread's non-NULL
 * value as argument (POSIX pthread_key_create). */
#include "../conform.h"
static pthread_key_t k;
static void *got;
static int calls;
static void d(void *v) { got = v; calls++; }
static void *fn(void *a) { pthread_setspecific(k, a); return NULL; }
int main(void)
{
	static int mine;
	OK(pthread_key_create(&k, d));
	join(spawn(fn, &mine));
	CHECK(calls == 1 && got == &mine);
	pass();
}
