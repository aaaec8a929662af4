/* Four threads that compute without calling into the shim for about
 * BUSY_MS each (argv[1], default 600), at GMP_MAXPROCS=2: two run, two wait
 * in run queues.  check-schedtrace reads the trace this produces. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long busy_ms = 600;

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void *spin(void *arg)
{
	volatile unsigned long x = 0;
	long long end = now_ms() + busy_ms;
	while (now_ms() < end)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
	return arg;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		busy_ms = atol(argv[1]);
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, spin, NULL) != 0)
			return 1;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
