/* pthread_spin_init (private) returns 0 and gives an unlocked lock;
 * pthread_spin_destroy returns 0 (POSIX pthread_spin_init,
 * pthread_spin_destroy). */
#include "../conform.h"
int main(void)
{
	pthread_spinlock_t s;
	OK(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE));
	OK(pthread_spin_trylock(&s));
	OK(pthread_spin_unlock(&s));
	OK(pthread_spin_destroy(&s));
	pass();
}
