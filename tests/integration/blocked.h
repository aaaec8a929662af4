/* Shared by the integration programs that check a thread blocked in a
 * call does not stop the others: a worker makes the call and stores its
 * outcome in result, a counter thread must keep counting meanwhile. */
#ifndef GMP_TEST_BLOCKED_H
#define GMP_TEST_BLOCKED_H

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

static volatile long counter;
static volatile int stop;
static volatile long result; /* NOT_YET until the worker's call returns */

#define NOT_YET (-100)

static void *count(void *arg)
{
	(void)arg;
	while (!stop) {
		counter++;
		sched_yield();
	}
	return NULL;
}

/* Starts the counter thread in *c and waits up to 10 s for it to move;
 * returns whether it did.  The caller sets stop and joins *c. */
static int others_run(pthread_t *c)
{
	stop = 0;
	pthread_create(c, NULL, count, NULL);
	long start = counter;
	int moved = 0;
	for (int i = 0; i < 10000 && !moved; i++) {
		usleep(1000);
		moved = counter - start > 100;
	}
	return moved;
}

/* Runs fn in a worker, waits until the counter moves on while it is
 * blocked, then calls unblock; returns whether the counter moved while the
 * worker's call had still not returned. */
static int scenario(void *(*fn)(void *), void (*unblock)(void))
{
	pthread_t w, c;
	result = NOT_YET;
	pthread_create(&w, NULL, fn, NULL);
	usleep(20000); /* let the worker block */
	int moved = others_run(&c);
	int still_blocked = result == NOT_YET;
	if (!moved)
		fprintf(stderr, "the counter stood still for 10 s\n");
	if (!still_blocked)
		fprintf(stderr, "the call returned %ld before it was unblocked\n", result);
	unblock();
	pthread_join(w, NULL);
	stop = 1;
	pthread_join(c, NULL);
	return moved && still_blocked;
}

#endif
