/* Thread-specific data on threads the program did not make with
 * pthread_create: glibc runs a SIGEV_THREAD timer's function on a helper
 * thread of its own, and that function may use pthread keys like any
 * other (the shim keeps keys per G, and such a thread is not one). */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "check.h"

static pthread_key_t key;
static sem_t done;
static volatile int before_set_null, after_set_same;

static void tick(union sigval v)
{
	before_set_null = pthread_getspecific(key) == NULL;
	pthread_setspecific(key, v.sival_ptr);
	after_set_same = pthread_getspecific(key) == v.sival_ptr;
	sem_post(&done);
}

int main(void)
{
	static int cookie;
	pthread_key_create(&key, NULL);
	pthread_setspecific(key, &key);
	sem_init(&done, 0, 0);
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = tick,
			       .sigev_value.sival_ptr = &cookie };
	timer_t t;
	timer_create(CLOCK_MONOTONIC, &ev, &t);
	struct itimerspec its = { .it_value = { 0, 10000000 } };
	timer_settime(t, 0, &its, NULL);
	sem_wait(&done);
	timer_delete(t);
	CHECK(before_set_null && after_set_same, "a timer's helper thread has its own key values");
	CHECK(pthread_getspecific(key) == &key, "main's value is untouched");
	return failures != 0;
}
