/* Mutex-heavy synthetic server: every request, from whichever connection
 * thread, updates one shared table under one global mutex, doing its hashing
 * while holding it, so connection threads queue on the lock. */
#include "lineserv.h"
#include <pthread.h>

#define SLOTS 4096

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t table[SLOTS];

void serve_init(void)
{
}

void serve_line(const char *line, size_t len)
{
	pthread_mutex_lock(&table_lock);
	uint64_t h = lineserv_work(line, len, 8);
	table[h % SLOTS] += h;
	table[(h >> 20) % SLOTS]++;
	pthread_mutex_unlock(&table_lock);
}

int main(void)
{
	return lineserv_main();
}
