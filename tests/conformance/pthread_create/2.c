/* On success pthread_create stores the new thread's ID in *thread, and it is
 * the ID the new thread gets from pthread_self (POSIX pthread_create). */
#include "../conform.h"
static pthread_t inside;
static sem_t ready;
static void *fn(void *a) { inside = pthread_self(); sem_post(&ready); return NULL; }
int main(void)
{
	pthread_t t;
	sem_init(&ready, 0, 0);
	OK(pthread_create(&t, NULL, fn, NULL));
	sem_wait_ok(&ready);
	CHECK(pthread_equal(t, inside));
	join(t);
	pass();
}
