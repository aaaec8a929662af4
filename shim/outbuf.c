#include <fcntl.h>
#include <sys/syscall.h>

#include "outbuf.h"
#include "sys.h"

void ob_flush(struct outbuf *ob)
{
	const char *s = ob->buf;
	size_t n = ob->n;
	while (n > 0) {
		long w = gmp_syscall(SYS_write, ob->fd, s, n);
		if (w == -4) /* EINTR */
			continue;
		if (w <= 0)
			break;
		s += w;
		n -= (size_t)w;
	}
	ob->n = 0;
}

void ob_char(struct outbuf *ob, char c)
{
	if (ob->n == sizeof ob->buf)
		ob_flush(ob);
	ob->buf[ob->n++] = c;
}

void ob_str(struct outbuf *ob, const char *s)
{
	if (s == 0)
		s = "(null)";
	while (*s)
		ob_char(ob, *s++);
}

void ob_udec(struct outbuf *ob, uint64_t v)
{
	char tmp[24];
	int i = 0;
	do {
		tmp[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (i > 0)
		ob_char(ob, tmp[--i]);
}

void ob_dec(struct outbuf *ob, int64_t v)
{
	if (v < 0) {
		ob_char(ob, '-');
		ob_udec(ob, (uint64_t)0 - (uint64_t)v);
	} else {
		ob_udec(ob, (uint64_t)v);
	}
}

void ob_hex(struct outbuf *ob, uint64_t v)
{
	char tmp[16];
	int i = 0;
	do {
		tmp[i++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	ob_str(ob, "0x");
	while (i > 0)
		ob_char(ob, tmp[--i]);
}

/* v / div with one or two decimals, without floating point (which a
 * signal handler may find in an unknown MXCSR state). */
static void frac(struct outbuf *ob, int64_t v, int64_t div, const char *unit)
{
	ob_dec(ob, v / div);
	int64_t rem = (v % div) * 100 / div;
	if (rem) {
		ob_char(ob, '.');
		ob_char(ob, (char)('0' + rem / 10));
		if (rem % 10)
			ob_char(ob, (char)('0' + rem % 10));
	}
	ob_str(ob, unit);
}

void ob_dur(struct outbuf *ob, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	if (ns < 1000) {
		ob_dec(ob, ns);
		ob_str(ob, "ns");
	} else if (ns < 1000000) {
		frac(ob, ns, 1000, "us");
	} else if (ns < 1000000000) {
		frac(ob, ns, 1000000, "ms");
	} else if (ns < 60000000000LL) {
		frac(ob, ns, 1000000000, "s");
	} else {
		int64_t s = ns / 1000000000;
		ob_dec(ob, s / 60);
		ob_char(ob, 'm');
		ob_char(ob, (char)('0' + (s % 60) / 10));
		ob_char(ob, (char)('0' + s % 10));
		ob_char(ob, 's');
	}
}

int ob_open(const char *pattern)
{
	if (pattern == NULL || pattern[0] == '\0')
		return 2;
	char path[600];
	size_t n = 0;
	for (const char *p = pattern; *p && n < sizeof path - 24; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			char digits[12];
			int k = 0;
			for (unsigned long v = (unsigned long)gmp_syscall(SYS_getpid, 0, 0, 0); k == 0 || v; v /= 10)
				digits[k++] = (char)('0' + v % 10);
			while (k > 0)
				path[n++] = digits[--k];
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			path[n++] = '%';
			p++;
		} else {
			path[n++] = *p;
		}
	}
	path[n] = '\0';
	long fd = gmp_syscall6(SYS_openat, AT_FDCWD, (long)path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644, 0, 0);
	return fd < 0 ? 2 : (int)fd;
}
