/* The runtime's own descriptors (rtfd.c): the netpoller's epoll instance,
 * its wake-up eventfd and the clock-change timerfd.  Daemons close every
 * fd they did not open, dup2 over numbers, and expect open() to hand them
 * the lowest free number; none of that may touch ours, and ours must not
 * take a number the program expects. */
#ifndef GMP_RTFD_H
#define GMP_RTFD_H

#include <stdbool.h>

#include "fork.h"

/* Moves fd (just created, close-on-exec) to a high number, out of the way
 * of the program's, and remembers it.  Returns the new number, or fd
 * itself if it could not be moved.  Any context holding no runtime lock
 * but the caller's own. */
int gmp_rtfd_adopt(int fd);
/* The runtime is done with fd: closes it, unless it is no longer ours (a
 * raw close, and the number reused by the program). */
void gmp_rtfd_close(int fd);
/* Whether fd is one of the runtime's: the program's calls treat it as not
 * open (close and fcntl: EBADF).  A few compares; any context. */
bool gmp_rtfd_is(int fd);
/* The runtime's fds, ascending, into out (room for GMP_RTFD_MAX); their
 * number. */
#define GMP_RTFD_MAX 4
int gmp_rtfd_list(int *out);
/* The program dup2s onto fd, one of ours: ours moves to another number
 * first (*where is updated) and fd is left to the program's call. */
void gmp_rtfd_evict(int fd);
/* Each runtime fd registers the variable that holds its number, so that
 * an eviction can update it. */
void gmp_rtfd_owner(int fd, int *where);

/* Its lock across fork: taken after the netpoller's (before the fork),
 * reset in the child before the netpoller rebuilds its fds there. */
void rtfd_fork(enum gmp_fork_phase phase);

#endif
