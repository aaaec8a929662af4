/* pthread_create reports EAGAIN when the stack cannot be had, and the
 * process stays healthy: threads can still be created afterwards. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>

static void *ret_arg(void *arg)
{
	return arg;
}

int main(void)
{
	/* A 1 TiB stack cannot fit under a 4 GiB address-space limit. */
	struct rlimit rl = { 4ul << 30, 4ul << 30 };
	if (setrlimit(RLIMIT_AS, &rl) != 0) {
		perror("setrlimit");
		return 1;
	}
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1ul << 40);
	pthread_t t;
	int err = pthread_create(&t, &attr, ret_arg, NULL);
	printf("huge stack: %s\n", err == EAGAIN ? "EAGAIN" : err == 0 ? "created" : "other error");
	void *r = NULL;
	err = pthread_create(&t, NULL, ret_arg, (void *)42);
	if (err == 0)
		pthread_join(t, &r);
	printf("next thread: %s, returned %ld\n", err == 0 ? "created" : "failed", (long)r);
	return 0;
}
