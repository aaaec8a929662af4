/* pthread_spin_trylock on a lock held by another thread fails with EBUSY
 * (POSIX pthread_spin_trylock). */
#include "../conform.h"
static pthread_spinlock_t s;
static void *fn(void *a) { return (void *)(intptr_t)pthread_spin_trylock(&s); }
int main(void)
{
	OK(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE));
	OK(pthread_spin_lock(&s));
	CHECK(join(spawn(fn, NULL)) == (void *)EBUSY);
	OK(pthread_spin_unlock(&s));
	pass();
}
