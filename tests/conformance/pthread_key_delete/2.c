/* Deleting a key does not call its destructor, neither at deletion nor at
 * the exit of threads that had a value for it (POSIX pthread_key_delete). */
#include "../conform.h"
static pthread_key_t k;
static int calls;
static sem_t set, deleted;
static void d(void *v) { calls++; }
static void *fn(void *a) { pthread_setspecific(k, "x"); sem_post(&set); sem_wait_ok(&deleted); return NULL; }
int main(void)
{
	sem_init(&set, 0, 0);
	sem_init(&deleted, 0, 0);
	OK(pthread_key_create(&k, d));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&set);
	OK(pthread_setspecific(k, "y"));
	OK(pthread_key_delete(k));
	sem_post(&deleted);
	join(t);
	CHECK(calls == 0);
	pass();
}
