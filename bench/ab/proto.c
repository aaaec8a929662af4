#define _GNU_SOURCE
#include "proto.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint64_t rng_next(uint64_t *s)
{
	/* splitmix64: cheap, and good enough for arrival gaps and key choice */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int proto_parse_kind(const char *name, enum proto_kind *k)
{
	static const char *names[] = { "echo", "memcache", "resp", "http" };
	for (int i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0) {
			*k = (enum proto_kind)i;
			return 0;
		}
	return -1;
}

/* Every value of key k is the same byte repeated, so a get can be checked
 * whoever set it last. */
static char value_byte(int k)
{
	return (char)('a' + k % 26);
}

static size_t kv_set(const struct proto_conf *pc, int k, char *out, size_t cap)
{
	char key[16], val[4096];
	snprintf(key, sizeof key, "key:%08d", k);
	memset(val, value_byte(k), (size_t)pc->size);
	val[pc->size] = 0;
	if (pc->kind == PROTO_MEMCACHE)
		return (size_t)snprintf(out, cap, "set %s 0 0 %d\r\n%s\r\n", key, pc->size, val);
	return (size_t)snprintf(out, cap, "*3\r\n$3\r\nSET\r\n$%zu\r\n%s\r\n$%d\r\n%s\r\n", strlen(key), key,
				pc->size, val);
}

size_t proto_set(const struct proto_conf *pc, int k, char *out, size_t cap, struct reply_state *st)
{
	memset(st, 0, sizeof *st);
	st->is_set = 1;
	st->key = k;
	st->req = out;
	return st->req_len = kv_set(pc, k, out, cap);
}

size_t proto_request(const struct proto_conf *pc, uint64_t *rng, uint64_t seq, char *out, size_t cap,
		     struct reply_state *st)
{
	size_t n = 0;
	memset(st, 0, sizeof *st);
	st->req = out;
	st->body_left = -1;
	switch (pc->kind) {
	case PROTO_ECHO: {
		int h = snprintf(out, cap, "%llu ", (unsigned long long)seq);
		n = (size_t)pc->size;
		if ((size_t)h < n - 1)
			memset(out + h, 'x', n - 1 - (size_t)h);
		out[n - 1] = '\n';
		break;
	}
	case PROTO_MEMCACHE:
	case PROTO_RESP: {
		int k = (int)(rng_next(rng) % (uint64_t)pc->keys);
		st->key = k;
		if ((double)(rng_next(rng) >> 11) / 9007199254740992.0 < pc->set_ratio) {
			st->is_set = 1;
			n = kv_set(pc, k, out, cap);
		} else if (pc->kind == PROTO_MEMCACHE) {
			n = (size_t)snprintf(out, cap, "get key:%08d\r\n", k);
		} else {
			n = (size_t)snprintf(out, cap, "*2\r\n$3\r\nGET\r\n$12\r\nkey:%08d\r\n", k);
		}
		break;
	}
	case PROTO_HTTP:
		n = (size_t)snprintf(out, cap, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", pc->path);
		break;
	}
	st->req_len = n;
	return n;
}

static const char *line_end(const char *buf, size_t len)
{
	const char *p = memmem(buf, len, "\r\n", 2);
	return p;
}

static int check_value(const struct proto_conf *pc, const struct reply_state *st, const char *v, long n)
{
	if (n != pc->size)
		return -1;
	for (long i = 0; i < n; i++)
		if (v[i] != value_byte(st->key))
			return -1;
	return 0;
}

/* The reply's first line, CRLF included, in *l1: 1; 0 while incomplete;
 * -1 when longer than any reply of ours. */
static int first_line(const char *buf, size_t len, size_t *l1)
{
	const char *e = line_end(buf, len);
	if (!e)
		return len > 512 ? -1 : 0;
	*l1 = (size_t)(e - buf) + 2;
	return 1;
}

/* A set is answered by one line, which must be ok. */
static int set_reply(const char *buf, size_t l1, const char *ok, size_t *used)
{
	*used = l1;
	return l1 == strlen(ok) && memcmp(buf, ok, l1) == 0 ? 1 : -1;
}

static int memcache_reply(const struct proto_conf *pc, struct reply_state *st, const char *buf, size_t len,
			  size_t *used)
{
	size_t l1;
	int r = first_line(buf, len, &l1);
	if (r <= 0)
		return r;
	if (st->is_set)
		return set_reply(buf, l1, "STORED\r\n", used);
	if (l1 == 5 && memcmp(buf, "END\r\n", 5) == 0) {
		*used = l1;
		return 1;
	}
	char key[64];
	unsigned flags;
	long bytes;
	if (sscanf(buf, "VALUE %63s %u %ld", key, &flags, &bytes) != 3 || bytes < 0)
		return -1;
	size_t need = l1 + (size_t)bytes + 2 + 5;
	if (len < need)
		return 0;
	if (check_value(pc, st, buf + l1, bytes) != 0 || memcmp(buf + need - 5, "END\r\n", 5) != 0)
		return -1;
	*used = need;
	return 1;
}

static int resp_reply(const struct proto_conf *pc, struct reply_state *st, const char *buf, size_t len,
		      size_t *used)
{
	size_t l1;
	int r = first_line(buf, len, &l1);
	if (r <= 0)
		return r;
	if (st->is_set)
		return set_reply(buf, l1, "+OK\r\n", used);
	if (buf[0] != '$')
		return -1;
	long n = strtol(buf + 1, NULL, 10);
	if (n == -1) {
		*used = l1;
		return 1;
	}
	if (n < 0 || len < l1 + (size_t)n + 2)
		return n < 0 ? -1 : 0;
	if (check_value(pc, st, buf + l1, n) != 0)
		return -1;
	*used = l1 + (size_t)n + 2;
	return 1;
}

static const char *header(const char *h, const char *end, const char *name)
{
	size_t nl = strlen(name);
	for (const char *p = h; p && p < end;) {
		const char *eol = memmem(p, (size_t)(end - p), "\r\n", 2);
		if (!eol)
			break;
		if ((size_t)(eol - p) > nl && strncasecmp(p, name, nl) == 0 && p[nl] == ':')
			return p + nl + 1;
		p = eol + 2;
	}
	return NULL;
}

static int http_reply(const struct proto_conf *pc, struct reply_state *st, const char *buf, size_t len,
		      size_t *used)
{
	if (st->body_left < 0) {
		const char *e = memmem(buf, len, "\r\n\r\n", 4);
		if (!e)
			return len >= 4000 ? -1 : 0;
		size_t hl = (size_t)(e - buf) + 4;
		if (len < 12 || memcmp(buf, "HTTP/1.", 7) != 0 || memcmp(buf + 8, " 200", 4) != 0)
			return -1;
		const char *cl = header(buf, e + 2, "Content-Length");
		if (!cl)
			return -1;
		long n = strtol(cl, NULL, 10);
		if (n < 0 || (pc->expect_len >= 0 && n != pc->expect_len))
			return -1;
		const char *conn = header(buf, e + 2, "Connection");
		st->close_after = conn ? strncasecmp(conn + strspn(conn, " "), "close", 5) == 0
				       : buf[7] == '0';
		st->body_left = n;
		*used = hl;
		len -= hl;
		if ((size_t)n > len) {
			st->body_left -= (long)len;
			*used += len;
			return 0;
		}
		*used += (size_t)n;
		st->body_left = 0;
		return 1;
	}
	size_t take = (size_t)st->body_left < len ? (size_t)st->body_left : len;
	st->body_left -= (long)take;
	*used = take;
	return st->body_left == 0 ? 1 : 0;
}

int proto_reply(const struct proto_conf *pc, struct reply_state *st, const char *buf, size_t len,
		size_t *used)
{
	*used = 0;
	switch (pc->kind) {
	case PROTO_ECHO:
		if (len < st->req_len)
			return memcmp(buf, st->req, len) == 0 ? 0 : -1;
		*used = st->req_len;
		return memcmp(buf, st->req, st->req_len) == 0 ? 1 : -1;
	case PROTO_MEMCACHE:
		return memcache_reply(pc, st, buf, len, used);
	case PROTO_RESP:
		return resp_reply(pc, st, buf, len, used);
	case PROTO_HTTP:
		return http_reply(pc, st, buf, len, used);
	}
	return -1;
}
