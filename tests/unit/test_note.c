/* The note's adaptive poll (lock.c): before it sleeps in the kernel a
 * sleeper polls for note->spin ns (0: the full 50 us).  A wake-up caught
 * by the poll, or one that came within three times the poll of the
 * sleep's start, doubles the next poll up to 50 us; a later one halves
 * it, down to 1 us, and so does a timeout (an idle M sleeping until a
 * timer gains nothing from polling first).  notesleep_nospin never
 * polls.  Wake-ups come from a real thread; the only timing assumed is
 * that a wake-up sent 100 ms after the sleep began came later than 150 us. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "lock.h"

#define FULL 50000
#define MIN 1000

static struct note n;
static uint32_t sleeping; /* the sleeper announced itself */

static void *late_waker(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&sleeping, __ATOMIC_ACQUIRE))
		;
	struct timespec ts = { 0, 100 * 1000000L };
	nanosleep(&ts, NULL);
	notewakeup(&n);
	return NULL;
}

/* Sleeps on the note until a thread wakes it 100 ms later: the wake-up
 * arrives with the sleeper in the kernel, long after the poll. */
static int sleep_woken_late(void)
{
	pthread_t t;
	noteclear(&n);
	__atomic_store_n(&sleeping, 0, __ATOMIC_RELEASE);
	assert_int_equal(pthread_create(&t, NULL, late_waker, NULL), 0);
	__atomic_store_n(&sleeping, 1, __ATOMIC_RELEASE);
	int r = notetsleep(&n, -1);
	pthread_join(t, NULL);
	return r;
}

/* A wake-up that is already there when the sleeper polls. */
static int sleep_woken_early(void)
{
	noteclear(&n);
	notewakeup(&n);
	return notetsleep(&n, -1);
}

static void test_caught_by_poll_doubles_up_to_full(void **state)
{
	n.spin = MIN;
	assert_int_equal(sleep_woken_early(), 1);
	assert_int_equal(n.spin, 2 * MIN);
	assert_int_equal(sleep_woken_early(), 1);
	assert_int_equal(n.spin, 4 * MIN);
	n.spin = 40000;
	assert_int_equal(sleep_woken_early(), 1);
	assert_int_equal(n.spin, FULL); /* not 80 us */
	n.spin = 0;                     /* unset: the full poll */
	assert_int_equal(sleep_woken_early(), 1);
	assert_int_equal(n.spin, FULL);
}

static void test_late_wakeup_halves_down_to_min(void **state)
{
	n.spin = 40000;
	assert_int_equal(sleep_woken_late(), 1);
	assert_int_equal(n.spin, 20000);
	assert_int_equal(sleep_woken_late(), 1);
	assert_int_equal(n.spin, 10000);
	n.spin = 1500;
	assert_int_equal(sleep_woken_late(), 1);
	assert_int_equal(n.spin, MIN); /* not 750 ns */
	assert_int_equal(sleep_woken_late(), 1);
	assert_int_equal(n.spin, MIN);
}

static void test_timeout_halves_the_poll(void **state)
{
	n.spin = 20000;
	noteclear(&n);
	assert_int_equal(notetsleep(&n, 2000000), 0); /* 2 ms, nobody wakes it */
	assert_int_equal(n.spin, 10000);
	/* The note is clear again: a wake-up after the timeout is the next
	 * sleep's, caught at once. */
	notewakeup(&n);
	assert_int_equal(notetsleep(&n, 0), 1);
}

static void *nospin_sleeper(void *arg)
{
	(void)arg;
	__atomic_store_n(&sleeping, 1, __ATOMIC_RELEASE);
	notesleep_nospin(&n);
	return NULL;
}

/* The sleeper goes straight to the kernel: the note reads 2 (asleep)
 * with no poll in between, and the poll setting is left alone. */
static void test_nospin_sleeps_in_the_kernel(void **state)
{
	pthread_t t;
	n.spin = 20000;
	noteclear(&n);
	__atomic_store_n(&sleeping, 0, __ATOMIC_RELEASE);
	assert_int_equal(pthread_create(&t, NULL, nospin_sleeper, NULL), 0);
	while (!__atomic_load_n(&sleeping, __ATOMIC_ACQUIRE))
		;
	while (__atomic_load_n(&n.key, __ATOMIC_ACQUIRE) != 2)
		;
	notewakeup(&n);
	pthread_join(t, NULL);
	assert_int_equal(n.spin, 20000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_caught_by_poll_doubles_up_to_full),
		cmocka_unit_test(test_late_wakeup_halves_down_to_min),
		cmocka_unit_test(test_timeout_halves_the_poll),
		cmocka_unit_test(test_nospin_sleeps_in_the_kernel),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
