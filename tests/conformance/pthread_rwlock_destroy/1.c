/* A read-write lock can be destroyed after use by several threads once all
 * have released it (POSIX pthread_rwlock_destroy). */
#include "../conform.h"
static pthread_rwlock_t *l;
static void *fn(void *a) { pthread_rwlock_rdlock(l); pthread_rwlock_unlock(l); pthread_rwlock_wrlock(l); pthread_rwlock_unlock(l); return NULL; }
int main(void)
{
	pthread_t t[4];
	l = malloc(sizeof *l);
	OK(pthread_rwlock_init(l, NULL));
	for (int i = 0; i < 4; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < 4; i++)
		join(t[i]);
	OK(pthread_rwlock_destroy(l));
	free(l);
	pass();
}
