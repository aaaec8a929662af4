/* Calls that glibc would route to the OS thread behind a TID.  A G has no
 * OS thread of its own, so they fail precisely instead of acting on the
 * wrong thread.  (pthread_cancel, once here, is interpose/pthread_cancel.c.) */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "export.h"
#include "shim/runtime.h"
