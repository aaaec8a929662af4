/* futex(2) and futex_waitv(2) as the program issues them through
 * syscall() (futex.c, futex_pi.c, futex_waitv.c): the kernel's semantics,
 * with the waiters of words in this process's own memory parked as Gs. */
#ifndef GMP_FUTEX_H
#define GMP_FUTEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "runtime.h"

/* Each returns what the system call would: a count, 0, or -errno. */
long gmp_sys_futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *timeout, uint32_t *uaddr2,
		   uint32_t val3);
long gmp_sys_futex_waitv(void *waiters, unsigned int nr, unsigned int flags, const struct timespec *timeout,
			 clockid_t clk);

/* futex_wake, futex_wait and futex_requeue (Linux 6.7; numbers x86_64),
 * args as passed to syscall(): the same as the FUTEX_WAKE_BITSET,
 * WAIT_BITSET and CMP_REQUEUE they generalise, for 32-bit words; other
 * sizes and NUMA words go to the kernel. */
#define GMP_SYS_futex_wake 454
#define GMP_SYS_futex_wait 455
#define GMP_SYS_futex_requeue 456
long gmp_sys_futex2(long nr, const long *args);

/* set_robust_list/get_robust_list through syscall() (futex_robust.c): a
 * G's list is its own, walked at its exit (gmp_futex_robust_exit). */
long gmp_futex_set_robust_list(void *head, size_t len);
long gmp_futex_get_robust_list(int pid, void **headp, size_t *lenp);
void gmp_futex_robust_exit(struct g *gp);
/* set_tid_address through syscall() and prctl(PR_GET_TID_ADDRESS): a G's
 * clear_child_tid is its own (the M's task runs many threads), cleared
 * and woken at its exit as the kernel does (gmp_futex_cleartid_exit).
 * set_tid_address returns the G's TID. */
long gmp_futex_set_tid_address(int *tidptr);
int *gmp_futex_tid_address(struct g *gp);
void gmp_futex_cleartid_exit(struct g *gp);

/* --- between the futex modules --- */

/* An absolute timeout on CLOCK_REALTIME or CLOCK_MONOTONIC as a deadline
 * (timer.h); -1 for none or too far ahead; *err = EINVAL if malformed. */
int64_t gmp_futex_abs_deadline(const struct timespec *ts, bool realtime, int *err);

/* The PI operations on a word in this process's memory (futex_pi.c). */
long gmp_futex_lock_pi(uint32_t *uaddr, int64_t deadline, bool try);
long gmp_futex_unlock_pi(uint32_t *uaddr);
long gmp_futex_wait_requeue_pi(uint32_t *uaddr, uint32_t val, int64_t deadline, uint32_t *uaddr2);
long gmp_futex_cmp_requeue_pi(uint32_t *uaddr, int nwake, uint32_t *uaddr2, int nmove, uint32_t cmpval);
/* At G exit: the PI words gp owns with Gs waiting go to their first
 * waiter with FUTEX_OWNER_DIED, as the kernel does for a dying task. */
void gmp_futex_pi_exit(struct g *gp);

/* futex_waitv's side of the wait queues (futex_waitv.c), bucket lock
 * held: takes up to n waitv waiters on addr, each a wake-up counted,
 * their waits onto *claimed; moves up to n to addr2 (a requeue). */
struct semroot;
struct waitv_state;
int gmp_waitv_take(struct semroot *root, const void *addr, int n, struct waitv_state **claimed);
int gmp_waitv_move(struct semroot *r1, const void *addr, struct semroot *r2, const void *addr2, int n);
/* After the bucket lock is dropped: wakes the claimed waits. */
void gmp_waitv_notify(struct waitv_state *claimed);

#endif
