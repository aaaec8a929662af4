/* Joins of several threads complete in any order, each returning its own
 * thread's value (POSIX pthread_join). */
#include "../conform.h"
static sem_t go[3];
static void *fn(void *a) { sem_wait_ok(&go[(intptr_t)a]); return (void *)((intptr_t)a + 100); }
int main(void)
{
	pthread_t t[3];
	for (intptr_t i = 0; i < 3; i++) {
		sem_init(&go[i], 0, 0);
		t[i] = spawn(fn, (void *)i);
	}
	for (int i = 2; i >= 0; i--) {
		sem_post(&go[i]);
		CHECK(join(t[i]) == (void *)(intptr_t)(i + 100));
	}
	pass();
}
