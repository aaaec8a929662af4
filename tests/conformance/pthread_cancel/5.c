/* A thread blocked in read on an empty pipe (a cancellation point) is
 * cancelled (POSIX XSH 2.9.5: read is a cancellation point). */
#include "../conform.h"
static int fd[2];
static sem_t entering;
static void *fn(void *a)
{
	char c;
	sem_post(&entering);
	read(fd[0], &c, 1);
	return (void *)1;
}
int main(void)
{
	CHECK(pipe(fd) == 0);
	sem_init(&entering, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&entering);
	settle(20);
	OK(pthread_cancel(t));
	CHECK(join(t) == PTHREAD_CANCELED);
	pass();
}
