/* Memory written by a thread before unlocking is visible to the thread that
 * locks the mutex next (POSIX memory synchronisation, XBD 4.12, through
 * pthread_mutex_lock / unlock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int data[64], ready;
static void *writer(void *a)
{
	pthread_mutex_lock(&m);
	for (int i = 0; i < 64; i++)
		data[i] = i * i;
	ready = 1;
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	pthread_t t = spawn(writer, NULL);
	for (;;) {
		pthread_mutex_lock(&m);
		int r = ready;
		if (r) {
			for (int i = 0; i < 64; i++)
				CHECK(data[i] == i * i);
			pthread_mutex_unlock(&m);
			break;
		}
		pthread_mutex_unlock(&m);
		sched_yield();
	}
	join(t);
	pass();
}
