/* TLS of a library loaded with dlopen is per thread, including in threads
 * that existed before the dlopen and for initial-exec variables that the
 * loader places in static TLS. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int (*bump_gd)(void), (*bump_ie)(void);
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int loaded;

static void check(const char *who)
{
	int a = bump_gd(), b = bump_gd(), c = bump_ie();
	if (a != 42 || b != 43 || c != 77) {
		fprintf(stderr, "%s: got %d %d %d, want 42 43 77\n", who, a, b, c);
		exit(1);
	}
}

static void *early(void *arg)
{
	pthread_mutex_lock(&mu);
	while (!loaded)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	check("thread started before dlopen");
	return arg;
}

static void *late(void *arg)
{
	check("thread started after dlopen");
	return arg;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: dlopen_tls LIBRARY\n");
		return 2;
	}
	pthread_t e[4], l[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&e[i], NULL, early, NULL);
	void *h = dlopen(argv[1], RTLD_NOW);
	if (h == NULL) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	bump_gd = (int (*)(void))dlsym(h, "bump_gd");
	bump_ie = (int (*)(void))dlsym(h, "bump_ie");
	pthread_mutex_lock(&mu);
	loaded = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < 4; i++)
		pthread_create(&l[i], NULL, late, NULL);
	for (int i = 0; i < 4; i++) {
		pthread_join(e[i], NULL);
		pthread_join(l[i], NULL);
	}
	check("main");
	puts("dlopen TLS is per thread in 9 threads");
	return 0;
}
