/* The initial thread's stack bounds, as NPTL's pthread_getattr_np reports
 * them for it: the top is the end of the mapping that holds the stack, and
 * it may grow down by RLIMIT_STACK but not into the mapping below.
 *
 * Found here with raw system calls because start-up may be entered from
 * inside a malloc: a library constructor that runs before ours allocates,
 * the program's malloc (jemalloc in redis-server) locks a pthread mutex,
 * and that interposed call starts the runtime.  pthread_getattr_np would
 * take the thread's lock and read /proc/self/maps through stdio, whose
 * malloc re-enters start-up and waits on that same lock for ever. */
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "mainstack.h"
#include "sys.h"

/* Reads /proc/self/maps line by line (only the "lo-hi" at the start of
 * each matters); returns the mapping holding sp and the end of the one
 * before it. */
static bool find_mapping(uintptr_t sp, uintptr_t *lo, uintptr_t *hi, uintptr_t *below)
{
	long fd = gmp_syscall6(SYS_openat, AT_FDCWD, (long)"/proc/self/maps", O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return false;
	char buf[1024];
	uintptr_t v[2] = { 0, 0 }, prev_end = 0;
	int field = 0; /* 0: low address, 1: high address, 2: rest of the line */
	bool found = false;
	long n;
	while (!found && (n = gmp_syscall(SYS_read, fd, buf, sizeof buf)) > 0) {
		for (long i = 0; i < n && !found; i++) {
			char c = buf[i];
			if (c == '\n') {
				if (v[0] <= sp && sp < v[1]) {
					*lo = v[0];
					*hi = v[1];
					*below = prev_end;
					found = true;
				}
				prev_end = v[1];
				v[0] = v[1] = 0;
				field = 0;
			} else if (field < 2) {
				int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
				if (d >= 0)
					v[field] = v[field] << 4 | (uintptr_t)d;
				else
					field++;
			}
		}
	}
	gmp_syscall(SYS_close, fd, 0, 0);
	return found;
}

void gmp_main_stack(void **lo, size_t *size)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	uintptr_t mlo, mhi, below;
	if (!find_mapping(here, &mlo, &mhi, &below))
		return;
	struct rlimit rl;
	uintptr_t room = mhi - below;
	if (gmp_syscall6(SYS_prlimit64, 0, RLIMIT_STACK, 0, (long)&rl, 0, 0) == 0 && rl.rlim_cur < room)
		room = rl.rlim_cur & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
	*lo = (void *)(mhi - room);
	*size = room;
}
