/* The request/reply formats the load generator speaks: a line echo, the
 * memcached text protocol, RESP (redis) and HTTP/1.1.  Each connection has
 * at most one request outstanding, so a reply is matched to the request
 * that the same connection sent last. */
#pragma once
#include <stddef.h>
#include <stdint.h>

enum proto_kind { PROTO_ECHO, PROTO_MEMCACHE, PROTO_RESP, PROTO_HTTP };

struct proto_conf {
	enum proto_kind kind;
	int size;         /* echo: message bytes with its newline; kv: value bytes */
	int keys;         /* kv: key space */
	double set_ratio; /* kv: share of sets */
	const char *path; /* http */
	long expect_len;  /* http: body length to insist on, -1 for any */
};

/* What parsing a reply needs to remember between reads. */
struct reply_state {
	const char *req; /* the request as sent (echo compares against it) */
	size_t req_len;
	int is_set, key;
	long body_left;  /* http: body bytes still to skip, -1 before the headers */
	int close_after; /* http: the server closes after this reply */
};

int proto_parse_kind(const char *name, enum proto_kind *k);
/* Writes one request into out (cap bytes), fills st; returns its length. */
size_t proto_request(const struct proto_conf *pc, uint64_t *rng, uint64_t seq, char *out, size_t cap,
		     struct reply_state *st);
/* Same for a set of key k (preloading the key-value stores). */
size_t proto_set(const struct proto_conf *pc, int k, char *out, size_t cap, struct reply_state *st);
/* Looks at len bytes received: 1 when the reply is complete, 0 when more is
 * needed, -1 when it is malformed or wrong.  *used is how many bytes were
 * taken (the caller drops them; a partial reply may keep them unused). */
int proto_reply(const struct proto_conf *pc, struct reply_state *st, const char *buf, size_t len,
		size_t *used);
uint64_t rng_next(uint64_t *s);
