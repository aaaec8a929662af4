/* Text output for code that may run in a signal handler or on g0: a
 * buffer on the caller's stack, flushed to a file descriptor with raw
 * write(2).  No malloc, no stdio, no errno, no locks. */
#ifndef GMP_OUTBUF_H
#define GMP_OUTBUF_H

#include <stddef.h>
#include <stdint.h>

struct outbuf {
	int fd;
	size_t n;
	char buf[2048];
};

static inline void ob_init(struct outbuf *ob, int fd)
{
	ob->fd = fd;
	ob->n = 0;
}

/* A report's destination (GMP_STATS_FILE, GMP_DUMP_FILE): the file named
 * by pattern, with %p the process ID (children that inherit the setting
 * write their own file) and %% a percent sign, opened for appending; 2
 * (stderr) for an empty pattern or a file that cannot be opened. */
int ob_open(const char *pattern);
void ob_flush(struct outbuf *ob);
void ob_str(struct outbuf *ob, const char *s);
void ob_char(struct outbuf *ob, char c);
void ob_dec(struct outbuf *ob, int64_t v);
void ob_udec(struct outbuf *ob, uint64_t v);
void ob_hex(struct outbuf *ob, uint64_t v); /* 0x... */
/* A duration in ns as Go prints one: 512ns, 1.5ms, 3.25s, 2m05s. */
void ob_dur(struct outbuf *ob, int64_t ns);

#endif
