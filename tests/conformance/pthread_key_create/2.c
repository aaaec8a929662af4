/* A newly created key has the value NULL in threads that already exist, and
 * in threads created later (POSIX pthread_key_create). */
#include "../conform.h"
static pthread_key_t k;
static sem_t made;
static void *old(void *a) { sem_wait_ok(&made); return pthread_getspecific(k); }
static void *young(void *a) { return pthread_getspecific(k); }
int main(void)
{
	sem_init(&made, 0, 0);
	pthread_t t = spawn(old, NULL);
	OK(pthread_key_create(&k, NULL));
	OK(pthread_setspecific(k, "main"));
	sem_post(&made);
	CHECK(join(t) == NULL);
	CHECK(join(spawn(young, NULL)) == NULL);
	pass();
}
