/* After pthread_spin_unlock another thread's trylock succeeds (POSIX
 * pthread_spin_unlock). */
#include "../conform.h"
static pthread_spinlock_t s;
static void *fn(void *a) { int r = pthread_spin_trylock(&s); if (r == 0) pthread_spin_unlock(&s); return (void *)(intptr_t)r; }
int main(void)
{
	OK(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE));
	OK(pthread_spin_lock(&s));
	CHECK(join(spawn(fn, NULL)) == (void *)EBUSY);
	OK(pthread_spin_unlock(&s));
	CHECK(join(spawn(fn, NULL)) == 0);
	pass();
}
