/* The address-keyed wait queues: FIFO per address, addresses sharing a
 * bucket kept apart (also once a bucket's chains have grown), removal from
 * any position, and of a whole queue at once. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

#include "runtime.h"
#include "waitq.h"

static struct g gs[8];
static long words[SEMTAB_SIZE * 2];

/* Two addresses that land in the same bucket. */
static void colliding(const void **a, const void **b)
{
	*a = &words[0];
	for (int i = 1; i < SEMTAB_SIZE * 2; i++)
		if (semroot(&words[i]) == semroot(*a)) {
			*b = &words[i];
			return;
		}
	fail_msg("no colliding address found");
}

static void test_fifo_per_address(void **state)
{
	const void *a, *b;
	colliding(&a, &b);
	struct semroot *root = semroot(a);
	waitq_enqueue(root, a, &gs[0]);
	waitq_enqueue(root, b, &gs[1]);
	waitq_enqueue(root, a, &gs[2]);
	waitq_enqueue(root, b, &gs[3]);
	waitq_enqueue(root, a, &gs[4]);
	assert_ptr_equal(waitq_head(root, a), &gs[0]);
	assert_ptr_equal(waitq_head(root, b), &gs[1]);
	assert_ptr_equal(waitq_dequeue(root, a), &gs[0]);
	assert_ptr_equal(waitq_dequeue(root, b), &gs[1]);
	assert_ptr_equal(waitq_dequeue(root, a), &gs[2]);
	assert_ptr_equal(waitq_dequeue(root, a), &gs[4]);
	assert_null(waitq_dequeue(root, a));
	assert_ptr_equal(waitq_dequeue(root, b), &gs[3]);
	assert_null(waitq_dequeue(root, b));
	assert_int_equal(root->nheads, 0);
}

static void test_remove_any_position(void **state)
{
	const void *a = &words[5];
	struct semroot *root = semroot(a);
	for (int i = 0; i < 5; i++)
		waitq_enqueue(root, a, &gs[i]);
	waitq_remove(root, &gs[2]); /* middle */
	assert_null(gs[2].waitaddr);
	waitq_remove(root, &gs[4]); /* tail: the tail pointer must move back */
	waitq_enqueue(root, a, &gs[5]);
	waitq_remove(root, &gs[0]); /* head: the next one becomes head */
	assert_ptr_equal(waitq_head(root, a), &gs[1]);
	assert_ptr_equal(waitq_dequeue(root, a), &gs[1]);
	assert_ptr_equal(waitq_dequeue(root, a), &gs[3]);
	assert_ptr_equal(waitq_dequeue(root, a), &gs[5]);
	assert_null(waitq_dequeue(root, a));
}

/* All waiters on one address leave at once, in FIFO order, and the
 * other address in the bucket keeps its queue (head, tail, order). */
static void test_dequeue_all(void **state)
{
	const void *a, *b;
	colliding(&a, &b);
	struct semroot *root = semroot(a);
	waitq_enqueue(root, b, &gs[0]);
	waitq_enqueue(root, a, &gs[1]);
	waitq_enqueue(root, a, &gs[2]);
	waitq_enqueue(root, b, &gs[3]);
	waitq_enqueue(root, a, &gs[4]);
	struct g *all = waitq_dequeue_all(root, a);
	assert_ptr_equal(all, &gs[1]);
	assert_ptr_equal(all->schedlink, &gs[2]);
	assert_ptr_equal(all->schedlink->schedlink, &gs[4]);
	assert_null(gs[4].schedlink);
	for (struct g *gp = all; gp; gp = gp->schedlink)
		assert_null(gp->waitaddr);
	assert_null(waitq_head(root, a));
	assert_null(waitq_dequeue_all(root, a));
	assert_int_equal(root->nheads, 1);
	waitq_enqueue(root, b, &gs[5]);
	assert_ptr_equal(waitq_dequeue(root, b), &gs[0]);
	assert_ptr_equal(waitq_dequeue(root, b), &gs[3]);
	assert_ptr_equal(waitq_dequeue(root, b), &gs[5]);
	assert_null(waitq_dequeue(root, b));
	assert_int_equal(root->nheads, 0);
}

/* Many addresses in one bucket: the chains grow under the queues, which
 * keep their order and their tails. */
#define MANY 2000
static struct g many[MANY];
static long manywords[MANY * SEMTAB_SIZE];

static void test_many_addresses_one_bucket(void **state)
{
	const void *addr[MANY / 2];
	struct semroot *root = semroot(&manywords[0]);
	int n = 0;
	for (long i = 0; i < MANY * SEMTAB_SIZE && n < MANY / 2; i++)
		if (semroot(&manywords[i]) == root)
			addr[n++] = &manywords[i];
	assert_int_equal(n, MANY / 2);
	/* Two waiters per address, the second queued after every first. */
	for (int i = 0; i < MANY; i++)
		waitq_enqueue(root, addr[i % (MANY / 2)], &many[i]);
	assert_int_equal(root->nheads, MANY / 2);
	assert_non_null(root->chains);
	for (int i = 0; i < MANY / 2; i++)
		assert_ptr_equal(waitq_head(root, addr[i]), &many[i]);
	/* Every other address loses its head, the rest their tail. */
	for (int i = 0; i < MANY / 2; i++)
		waitq_remove(root, &many[i % 2 ? i : i + MANY / 2]);
	for (int i = 0; i < MANY / 2; i++) {
		struct g *want = &many[i % 2 ? i + MANY / 2 : i];
		assert_ptr_equal(waitq_dequeue(root, addr[i]), want);
		assert_null(waitq_dequeue(root, addr[i]));
	}
	assert_int_equal(root->nheads, 0);
}

/* Thousands of waiters on one address, removed from the middle in an
 * order unrelated to their arrival (time-outs): FIFO order of the rest
 * and the tail survive. */
static void test_remove_middle_many(void **state)
{
	const void *a = &manywords[1];
	struct semroot *root = semroot(a);
	for (int i = 0; i < MANY; i++)
		waitq_enqueue(root, a, &many[i]);
	for (int i = 0; i < MANY; i++)
		if ((i * 7) % 3 == 1)
			waitq_remove(root, &many[(i * 7919) % MANY]);
	waitq_enqueue(root, a, &gs[0]);
	bool removed[MANY] = { 0 };
	for (int i = 0; i < MANY; i++)
		if ((i * 7) % 3 == 1)
			removed[(i * 7919) % MANY] = true;
	for (int i = 0; i < MANY; i++)
		if (!removed[i])
			assert_ptr_equal(waitq_dequeue(root, a), &many[i]);
	assert_ptr_equal(waitq_dequeue(root, a), &gs[0]);
	assert_null(waitq_dequeue(root, a));
}

static void test_empty(void **state)
{
	assert_null(waitq_dequeue(semroot(&words[9]), &words[9]));
	assert_null(waitq_head(semroot(&words[9]), &words[9]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_per_address),
		cmocka_unit_test(test_remove_any_position),
		cmocka_unit_test(test_dequeue_all),
		cmocka_unit_test(test_many_addresses_one_bucket),
		cmocka_unit_test(test_remove_middle_many),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
