/* What a thread has registered with the kernel, asked through syscall(),
 * as stress-ng's pthread stressor asks it of every thread it makes:
 *  - get_robust_list(0): the robust list head NPTL registered as the
 *    thread started, empty (its next is itself), with glibc's
 *    futex_offset.  Under the shim it was NULL until stop 58, and the
 *    stressor's copy of the head dereferenced it and crashed;
 *  - a copy of that head registered with set_robust_list: its next leads
 *    into a loop that never comes back to the copy, which the kernel walks
 *    to its limit at the thread's exit; the thread still exits and is
 *    joined (under the shim each step of that walk was a system call);
 *  - prctl(PR_GET_TID_ADDRESS): an address; set_tid_address returns the
 *    thread's own TID, gettid()'s (the shim returned its M's);
 *  - set_tid_address(&word): at the thread's exit word becomes 0 and a
 *    futex waiter on it wakes (CLONE_CHILD_CLEARTID's protocol).
 * Every thread on a stack of its own as well as on the default one. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define THREADS 40

static long main_offset;
static int bad_head, bad_tidaddr;

static void *probe(void *arg)
{
	(void)arg;
	struct robust_list_head *head = NULL;
	size_t len = 0;
	if (syscall(SYS_get_robust_list, 0, &head, &len) != 0 || head == NULL || len != sizeof *head ||
	    head->list.next != &head->list || head->futex_offset != main_offset || head->list_op_pending != NULL)
		__atomic_add_fetch(&bad_head, 1, __ATOMIC_RELAXED);
	/* The stressor's copy, registered: walked at exit. */
	struct robust_list_head copy;
	if (head)
		memcpy(&copy, head, sizeof copy);
	else
		memset(&copy, 0, sizeof copy);
	syscall(SYS_set_robust_list, &copy, sizeof copy);

	int *addr = NULL;
	pid_t tid = gettid();
	if (prctl(PR_GET_TID_ADDRESS, &addr) != 0 || addr == NULL || syscall(SYS_set_tid_address, addr) != tid)
		__atomic_add_fetch(&bad_tidaddr, 1, __ATOMIC_RELAXED);
	/* Exits with the copy registered, on the stack that goes with it. */
	return NULL;
}

/* A detached thread that hands its exit to *word (NPTL's join would wait
 * on its own TID word, which the kernel no longer clears). */
static void *clears(void *arg)
{
	syscall(SYS_set_tid_address, arg);
	return NULL;
}

static int wait_cleared(int *word)
{
	struct timespec step = { 0, 20 * 1000 * 1000 };
	for (int i = 0; i < 250 && __atomic_load_n(word, __ATOMIC_ACQUIRE) != 0; i++)
		syscall(SYS_futex, word, FUTEX_WAIT, 1, &step, NULL, 0); /* shared: as the kernel wakes it */
	return __atomic_load_n(word, __ATOMIC_ACQUIRE) == 0;
}

int main(void)
{
	struct robust_list_head *mh = NULL;
	size_t len = 0;
	int main_ok = syscall(SYS_get_robust_list, 0, &mh, &len) == 0 && mh != NULL && len == sizeof *mh &&
		      mh->list.next == &mh->list && mh->futex_offset != 0;
	main_offset = main_ok ? mh->futex_offset : -1;

	long rounds = test_work(20);
	int joined = 0;
	size_t stacksize = 64 * 1024;
	for (long r = 0; r < rounds; r++) {
		pthread_t t[THREADS];
		void *stacks[THREADS] = { 0 };
		for (int i = 0; i < THREADS; i++) {
			pthread_attr_t a;
			pthread_attr_init(&a);
			if (i % 2) {
				stacks[i] = mmap(NULL, stacksize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
						 0);
				pthread_attr_setstack(&a, stacks[i], stacksize);
			}
			if (pthread_create(&t[i], &a, probe, NULL) != 0)
				t[i] = 0;
			pthread_attr_destroy(&a);
		}
		for (int i = 0; i < THREADS; i++) {
			if (t[i] && pthread_join(t[i], NULL) == 0)
				joined++;
			if (stacks[i])
				munmap(stacks[i], stacksize);
		}
	}

	int cleared = 0;
	for (int i = 0; i < 20; i++) {
		static int word;
		word = 1;
		pthread_t t;
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		int ok = pthread_create(&t, &a, clears, &word) == 0 && wait_cleared(&word);
		pthread_attr_destroy(&a);
		if (!ok)
			break; /* each miss waits 5 s */
		cleared++;
	}

	if (bad_head || bad_tidaddr)
		fprintf(stderr, "of %ld threads: %d with another robust head, %d with another TID address answer\n",
			rounds * THREADS, bad_head, bad_tidaddr);
	CHECK(main_ok, "get_robust_list: the initial thread's own empty head");
	CHECK(bad_head == 0, "get_robust_list: each thread's own empty head, as NPTL registers it");
	CHECK(joined == rounds * THREADS, "threads exit with a looping copy of it registered");
	CHECK(bad_tidaddr == 0, "PR_GET_TID_ADDRESS answers; set_tid_address returns gettid()");
	CHECK(cleared == 20, "set_tid_address's word cleared and woken at the thread's exit");
	CHECK(made_as_gs(THREADS), "the threads were made as Gs under the shim");
	return failures != 0;
}
