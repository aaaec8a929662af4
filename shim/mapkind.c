/* The mapping a futex word lives in, asked of the kernel at each call:
 * PROCMAP_QUERY (Linux 6.11) answers for one address with one ioctl on
 * /proc/self/maps; older kernels get the same answer from the text of
 * that file.  Asked each time, never cached: the program (or glibc
 * inside, where no wrapper of ours sees it) may unmap a range and map
 * shared memory at the same address. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "lock.h"
#include "mapkind.h"
#include "procfs.h"
#include "sys.h"

#ifndef PROCMAP_QUERY
/* The kernel's ABI (include/uapi/linux/fs.h, 6.11), which Debian 12's
 * headers predate. */
struct procmap_query {
	uint64_t size;
	uint64_t query_flags;
	uint64_t query_addr;
	uint64_t vma_start;
	uint64_t vma_end;
	uint64_t vma_flags;
	uint64_t vma_page_size;
	uint64_t vma_offset;
	uint64_t inode;
	uint32_t dev_major;
	uint32_t dev_minor;
	uint32_t vma_name_size;
	uint32_t build_id_size;
	uint64_t vma_name_addr;
	uint64_t build_id_addr;
};
#define PROCMAP_QUERY _IOWR('f', 17, struct procmap_query)
#define PROCMAP_QUERY_VMA_SHARED 0x08
#endif

/* The /proc/self/maps descriptor kept for the ioctl: -1 not opened yet,
 * -2 the kernel has no PROCMAP_QUERY. */
static int mapsfd = -1;
static struct mutex openlock;

static int open_maps(void)
{
	return (int)gmp_syscall(SYS_openat, AT_FDCWD, (long)"/proc/self/maps", O_RDONLY | O_CLOEXEC);
}

/* 1 shared, 0 private, -ENOENT unmapped, or another -errno when the ioctl
 * cannot answer. */
static int query(int fd, const void *addr)
{
	struct procmap_query q = { .size = sizeof q, .query_addr = (uintptr_t)addr };
	long r = gmp_syscall(SYS_ioctl, fd, PROCMAP_QUERY, (long)&q);
	if (r < 0)
		return (int)r;
	return (q.vma_flags & PROCMAP_QUERY_VMA_SHARED) != 0;
}

static uint64_t hexnum(const char **s)
{
	uint64_t v = 0;
	for (;; (*s)++) {
		char c = **s;
		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return v;
	}
}

/* The slow way: scan the lines "start-end perms ..." for the one holding
 * addr; the fourth perms letter is 's' for a shared mapping.  Through
 * gmp_procfs_run, as a descriptor opened for each call. */
static long scan(void *arg)
{
	const void *addr = arg;
	int fd = open_maps();
	if (fd < 0)
		return MAPKIND_SHARED; /* cannot tell: the kernel's queues are right either way */
	uint64_t a = (uintptr_t)addr;
	char buf[4096];
	size_t have = 0;
	enum mapkind kind = MAPKIND_NONE;
	for (;;) {
		long n = gmp_syscall(SYS_read, fd, (long)(buf + have), (long)(sizeof buf - have - 1));
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = 0;
		char *line = buf, *nl;
		bool done = false;
		while ((nl = __builtin_memchr(line, '\n', (size_t)(buf + have - line))) != NULL) {
			const char *s = line;
			uint64_t lo = hexnum(&s);
			s++;
			uint64_t hi = hexnum(&s);
			if (a < lo) {
				done = true; /* lines are sorted: a lies in a hole */
				break;
			}
			if (a < hi) {
				kind = s[4] == 's' ? MAPKIND_SHARED : MAPKIND_PRIVATE;
				done = true;
				break;
			}
			line = nl + 1;
		}
		if (done)
			break;
		have = (size_t)(buf + have - line);
		__builtin_memmove(buf, line, have);
	}
	gmp_syscall(SYS_close, fd, 0, 0);
	return kind;
}

enum mapkind gmp_mapkind(const void *addr)
{
	for (int tries = 0; tries < 2; tries++) {
		int fd = __atomic_load_n(&mapsfd, __ATOMIC_ACQUIRE);
		if (fd == -2)
			break;
		if (fd == -1) {
			lock(&openlock);
			fd = mapsfd;
			if (fd == -1) {
				/* A fresh descriptor that cannot answer: a kernel
				 * without the ioctl (ENOTTY), or qemu-user, which
				 * emulates /proc/self/maps as a file of text and
				 * refuses ioctls it does not know (ENOSYS). */
				fd = open_maps();
				int r = fd < 0 ? -EBADF : query(fd, addr);
				if (r < 0 && r != -ENOENT) {
					if (fd >= 0)
						gmp_syscall(SYS_close, fd, 0, 0);
					fd = -2;
				}
				__atomic_store_n(&mapsfd, fd, __ATOMIC_RELEASE);
			}
			unlock(&openlock);
			if (fd == -2)
				break;
		}
		int r = query(fd, addr);
		if (r >= 0)
			return r ? MAPKIND_SHARED : MAPKIND_PRIVATE;
		if (r == -ENOENT)
			return MAPKIND_NONE;
		/* The program closed our descriptor (or reused its number for
		 * something else): open another. */
		int expect = fd;
		__atomic_compare_exchange_n(&mapsfd, &expect, -1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
	}
	long kind = gmp_procfs_run(scan, (void *)addr);
	return (enum mapkind)(kind == -EAGAIN ? scan((void *)addr) : kind); /* a futex call cannot wait for it */
}

void mapkind_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_CHILD && mapsfd >= 0) {
		/* It still describes the parent's address space. */
		gmp_syscall(SYS_close, mapsfd, 0, 0);
		mapsfd = -1;
		openlock = (struct mutex){ 0 };
	}
}
