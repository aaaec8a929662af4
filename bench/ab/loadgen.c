/* Open-loop load generator for the A/B harness (bench/ab/run).
 *
 * Requests arrive as a Poisson process at a fixed offered rate, whatever the
 * server does; a request that comes due while every connection is busy waits
 * in a queue, and its latency is counted from the time it was due, not from
 * when it could be sent, so a server that stalls pays for every request it
 * delayed (no coordinated omission).  Connections (each with at most one
 * request outstanding) are spread over a few client threads, each with its
 * own epoll set, arrival process and histogram.  --rate 0 is closed loop:
 * every connection sends again as soon as its reply is in (what memaslap,
 * redis-benchmark and wrk do), and latency counts from the actual send.
 *
 * One JSON (or CSV) line per offered rate on stdout, a table on stderr.
 * Latencies are of requests due in the measured window (after --warmup, for
 * --duration); throughput is replies received in that window per second.
 * A request still unanswered --drain seconds after the window is
 * "incomplete", one still queued then is "unsent": neither has a latency,
 * so both are reported, and --check fails on them.
 *
 * The client acknowledges every read at once (TCP_QUICKACK) unless
 * --delayed-ack: a server that writes a reply in two pieces without
 * TCP_NODELAY (python's http.server: headers, then body) otherwise waits
 * for the client's delayed ACK, 40 ms, on every request, and that would be
 * all one measured. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hist.h"
#include "proto.h"

#define OUTCAP 2304
#define INCAP 4096
#define RING (1u << 20)

struct conn {
	int fd, busy, dead;
	int64_t intended;
	char out[OUTCAP];
	size_t out_len, out_off;
	char in[INCAP];
	size_t in_len;
	struct reply_state st;
};

struct worker {
	pthread_t thread;
	int id, ep, nconns, nidle;
	struct conn *conns;
	int *idle;
	int64_t *ring;
	size_t rhead, rtail;
	uint64_t rng, seq;
	double gap_ns; /* mean gap between arrivals on this thread */
	struct hist h;
	uint64_t sent, replies, window_replies, errors, reconnects, incomplete, unsent, overflow;
};

static struct proto_conf pc = { .size = -1, .keys = 1000, .set_ratio = 0.1, .path = "/", .expect_len = -1 };
static struct sockaddr_storage addr;
static socklen_t addr_len;
static int nthreads = 2, nconns = 16, closed_loop, quickack = 1;
static double warmup = 1, duration = 3, drain = 2;
static int64_t t_start, t_window, t_end, t_drain;

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int dial(void)
{
	int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	/* a full accept queue drops SYNs; the kernel retries, so a blocking
	 * connect just takes longer, which is what a slow acceptor costs */
	if (connect(fd, (struct sockaddr *)&addr, addr_len) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int conn_open(struct worker *w, struct conn *c)
{
	c->fd = dial();
	c->busy = 0;
	c->in_len = 0;
	if (c->fd < 0) {
		c->dead = 1;
		return -1;
	}
	fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
	epoll_ctl(w->ep, EPOLL_CTL_ADD, c->fd, &ev);
	c->dead = 0;
	return 0;
}

static void make_idle(struct worker *w, struct conn *c)
{
	c->busy = 0;
	w->idle[w->nidle++] = (int)(c - w->conns);
}

/* The connection is closed and opened again; the request it carried, if
 * any, is lost (counted as an error by the caller). */
static void conn_reset(struct worker *w, struct conn *c)
{
	close(c->fd);
	w->reconnects++;
	if (conn_open(w, c) == 0)
		make_idle(w, c);
}

static void conn_fail(struct worker *w, struct conn *c)
{
	w->errors++;
	conn_reset(w, c);
}

static void set_out(struct worker *w, struct conn *c, int on)
{
	struct epoll_event ev = { .events = EPOLLIN | (on ? EPOLLOUT : 0), .data.ptr = c };
	epoll_ctl(w->ep, EPOLL_CTL_MOD, c->fd, &ev);
}

static void flush(struct worker *w, struct conn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = write(c->fd, c->out + c->out_off, c->out_len - c->out_off);
		if (n < 0 && errno == EAGAIN) {
			set_out(w, c, 1);
			return;
		}
		if (n <= 0) {
			conn_fail(w, c);
			return;
		}
		c->out_off += (size_t)n;
	}
}

static void send_req(struct worker *w, int64_t intended)
{
	struct conn *c = &w->conns[w->idle[--w->nidle]];
	c->busy = 1;
	c->intended = intended;
	c->out_len = proto_request(&pc, &w->rng, w->seq++, c->out, sizeof c->out, &c->st);
	c->out_off = 0;
	w->sent++;
	flush(w, c);
}

static void complete(struct worker *w, struct conn *c, int64_t now)
{
	w->replies++;
	if (c->intended >= t_window && c->intended < t_end)
		hist_record(&w->h, (uint64_t)(now - c->intended));
	if (now >= t_window && now < t_end)
		w->window_replies++;
	if (c->in_len != 0) {
		conn_fail(w, c); /* bytes nobody asked for */
		return;
	}
	if (c->st.close_after) {
		close(c->fd);
		if (conn_open(w, c) == 0)
			make_idle(w, c);
		return;
	}
	make_idle(w, c);
}

static void on_readable(struct worker *w, struct conn *c, int64_t now)
{
	for (;;) {
		ssize_t n = read(c->fd, c->in + c->in_len, INCAP - c->in_len);
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			if (c->busy)
				conn_fail(w, c);
			else
				conn_reset(w, c); /* an idle keep-alive closed by the server */
			return;
		}
		if (!c->busy) {
			conn_fail(w, c);
			return;
		}
		if (quickack) {
			/* The kernel re-enters delayed-ACK mode on its own, so
			 * this is asked again after every read. */
			int one = 1;
			setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
		}
		c->in_len += (size_t)n;
		size_t used;
		int r = proto_reply(&pc, &c->st, c->in, c->in_len, &used);
		if (used) {
			memmove(c->in, c->in + used, c->in_len - used);
			c->in_len -= used;
		}
		if (r < 0 || (r == 0 && c->in_len == INCAP)) {
			conn_fail(w, c);
			return;
		}
		if (r == 1) {
			complete(w, c, now);
			return;
		}
	}
}

static size_t ring_len(struct worker *w)
{
	return w->rtail - w->rhead;
}

static int64_t gap(struct worker *w)
{
	double u = ((double)(rng_next(&w->rng) >> 11) + 1) / 9007199254740993.0;
	return (int64_t)(-log(u) * w->gap_ns);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct epoll_event evs[512];
	int64_t next = t_start + gap(w);
	for (;;) {
		int64_t now = now_ns();
		if (!closed_loop) {
			for (; next <= now && next < t_end; next += gap(w)) {
				if (ring_len(w) == RING)
					w->overflow++;
				else
					w->ring[w->rtail++ % RING] = next;
			}
			while (ring_len(w) && w->nidle)
				send_req(w, w->ring[w->rhead++ % RING]);
		} else if (now < t_end && now >= t_start) {
			while (w->nidle)
				send_req(w, now);
		}
		int outstanding = 0;
		if (now >= t_end) {
			for (int i = 0; i < w->nconns; i++)
				outstanding += w->conns[i].busy;
			if (!outstanding && !ring_len(w))
				break;
			if (now >= t_drain) {
				w->incomplete += (uint64_t)outstanding;
				w->unsent += ring_len(w);
				break;
			}
		}
		int64_t wake = t_drain;
		if (now < t_end)
			wake = closed_loop ? (now < t_start ? t_start : t_end) : (next < t_end ? next : t_end);
		int64_t d = wake > now ? wake - now : 0;
		struct timespec ts = { d / 1000000000, d % 1000000000 };
		int n = epoll_pwait2(w->ep, evs, 512, &ts, NULL);
		now = now_ns();
		for (int i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;
			if (c->dead)
				continue;
			if (evs[i].events & EPOLLOUT) {
				if (c->out_off == c->out_len)
					set_out(w, c, 0);
				else {
					flush(w, c);
					if (c->out_off == c->out_len)
						set_out(w, c, 0);
				}
			}
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				on_readable(w, c, now);
		}
	}
	return NULL;
}

/* Sets every key once over a blocking connection, so gets hit from the
 * first request on and their values can be checked. */
static int preload(void)
{
	int fd = dial();
	if (fd < 0)
		return -1;
	struct conn *c = calloc(1, sizeof *c);
	for (int k = 0; k < pc.keys; k++) {
		size_t len = proto_set(&pc, k, c->out, sizeof c->out, &c->st);
		if (write(fd, c->out, len) != (ssize_t)len)
			return -1;
		c->in_len = 0;
		int r = 0;
		while (r == 0) {
			ssize_t n = read(fd, c->in + c->in_len, INCAP - c->in_len);
			if (n <= 0)
				return -1;
			c->in_len += (size_t)n;
			size_t used;
			r = proto_reply(&pc, &c->st, c->in, c->in_len, &used);
		}
		if (r < 0)
			return -1;
	}
	close(fd);
	free(c);
	return 0;
}

static int parse_rates(const char *s, double **out)
{
	double lo, hi, step;
	int n = 0;
	if (sscanf(s, "%lf:%lf:%lf", &lo, &hi, &step) == 3 && step > 0) {
		*out = malloc(sizeof **out * (size_t)((hi - lo) / step + 2));
		for (double r = lo; r <= hi + step / 1e6; r += step)
			(*out)[n++] = r;
		return n;
	}
	*out = malloc(sizeof **out * (strlen(s) + 1));
	char *dup = strdup(s), *save = NULL;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save))
		(*out)[n++] = atof(t);
	free(dup);
	return n;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: loadgen --port P [--host H] [--proto echo|memcache|resp|http] [--conns N] [--threads T]\n"
		"               [--rate R | --sweep R1,R2,... | --sweep LO:HI:STEP] (R=0: closed loop)\n"
		"               [--duration S] [--warmup S] [--drain S] [--size B] [--keys K] [--set-ratio F]\n"
		"               [--path P] [--expect-len N] [--preload] [--delayed-ack] [--check] [--csv] [-q]\n");
	exit(2);
}

static const char *kind_name(void)
{
	static const char *n[] = { "echo", "memcache", "resp", "http" };
	return n[pc.kind];
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "host", 1, 0, 'H' },	   { "port", 1, 0, 'p' },      { "proto", 1, 0, 'P' },
		{ "conns", 1, 0, 'c' },	   { "threads", 1, 0, 't' },   { "rate", 1, 0, 'r' },
		{ "sweep", 1, 0, 's' },	   { "duration", 1, 0, 'd' },  { "warmup", 1, 0, 'w' },
		{ "drain", 1, 0, 'D' },	   { "size", 1, 0, 'b' },      { "keys", 1, 0, 'k' },
		{ "set-ratio", 1, 0, 'S' }, { "path", 1, 0, 'u' },     { "expect-len", 1, 0, 'e' },
		{ "preload", 0, 0, 'L' },  { "check", 0, 0, 'C' },     { "csv", 0, 0, 'v' },
		{ "delayed-ack", 0, 0, 'A' },
		{ 0, 0, 0, 0 }
	};
	const char *host = "127.0.0.1", *port = NULL, *rates_s = "1000";
	int do_preload = 0, check = 0, csv = 0, quiet = 0, o;
	while ((o = getopt_long(argc, argv, "q", opts, NULL)) != -1) {
		switch (o) {
		case 'H': host = optarg; break;
		case 'p': port = optarg; break;
		case 'P': if (proto_parse_kind(optarg, &pc.kind)) usage(); break;
		case 'c': nconns = atoi(optarg); break;
		case 't': nthreads = atoi(optarg); break;
		case 'r': case 's': rates_s = optarg; break;
		case 'd': duration = atof(optarg); break;
		case 'w': warmup = atof(optarg); break;
		case 'D': drain = atof(optarg); break;
		case 'b': pc.size = atoi(optarg); break;
		case 'k': pc.keys = atoi(optarg); break;
		case 'S': pc.set_ratio = atof(optarg); break;
		case 'u': pc.path = optarg; break;
		case 'e': pc.expect_len = atol(optarg); break;
		case 'L': do_preload = 1; break;
		case 'C': check = 1; break;
		case 'v': csv = 1; break;
		case 'q': quiet = 1; break;
		case 'A': quickack = 0; break;
		default: usage();
		}
	}
	if (!port || nconns < 1 || nthreads < 1 || pc.keys < 1)
		usage();
	if (nthreads > nconns)
		nthreads = nconns;
	if (pc.size < 0)
		pc.size = pc.kind == PROTO_ECHO ? 64 : 32;
	if (pc.size < 2 || pc.size > 2048) {
		fprintf(stderr, "loadgen: --size must be 2..2048\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	if ((rlim_t)nconns + 64 > rl.rlim_cur) {
		fprintf(stderr, "loadgen: %d connections need more than RLIMIT_NOFILE %llu\n", nconns,
			(unsigned long long)rl.rlim_cur);
		return 2;
	}
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	if (getaddrinfo(host, port, &hints, &ai) != 0) {
		fprintf(stderr, "loadgen: cannot resolve %s:%s\n", host, port);
		return 2;
	}
	memcpy(&addr, ai->ai_addr, ai->ai_addrlen);
	addr_len = ai->ai_addrlen;
	freeaddrinfo(ai);
	if (do_preload && (pc.kind == PROTO_MEMCACHE || pc.kind == PROTO_RESP) && preload() != 0) {
		fprintf(stderr, "loadgen: preloading %d keys failed\n", pc.keys);
		return 1;
	}

	struct worker *ws = calloc((size_t)nthreads, sizeof *ws);
	for (int i = 0; i < nthreads; i++) {
		struct worker *w = &ws[i];
		w->id = i;
		w->ep = epoll_create1(EPOLL_CLOEXEC);
		w->nconns = nconns / nthreads + (i < nconns % nthreads);
		w->conns = calloc((size_t)w->nconns, sizeof *w->conns);
		w->idle = calloc((size_t)w->nconns, sizeof *w->idle);
		w->ring = malloc(RING * sizeof *w->ring);
		w->rng = 0x5eed0000u + (uint64_t)i * 7919 + (uint64_t)getpid();
		for (int j = 0; j < w->nconns; j++) {
			if (conn_open(w, &w->conns[j]) != 0) {
				fprintf(stderr, "loadgen: connection %d to %s:%s: %s\n", j, host, port,
					strerror(errno));
				return 1;
			}
			make_idle(w, &w->conns[j]);
		}
	}

	double *rates;
	int nrates = parse_rates(rates_s, &rates), bad = 0;
	if (!quiet)
		fprintf(stderr, "%10s %10s %8s %7s %9s %9s %9s %9s %9s\n", "offered/s", "achieved/s", "errors",
			"late", "mean us", "p50 us", "p90 us", "p99 us", "p99.9 us");
	if (csv)
		printf("proto,offered,conns,threads,duration_s,sent,replies,errors,reconnects,incomplete,unsent,"
		       "throughput,mean_us,p50_us,p90_us,p99_us,p999_us,max_us\n");
	for (int r = 0; r < nrates; r++) {
		closed_loop = rates[r] <= 0;
		for (int i = 0; i < nthreads; i++) {
			struct worker *w = &ws[i];
			memset(&w->h, 0, sizeof w->h);
			w->sent = w->replies = w->window_replies = w->errors = w->reconnects = 0;
			w->incomplete = w->unsent = w->overflow = 0;
			w->rhead = w->rtail = 0;
			w->gap_ns = closed_loop ? 0 : 1e9 * nthreads / rates[r];
		}
		t_start = now_ns() + 20000000;
		t_window = t_start + (int64_t)(warmup * 1e9);
		t_end = t_window + (int64_t)(duration * 1e9);
		t_drain = t_end + (int64_t)(drain * 1e9);
		for (int i = 0; i < nthreads; i++)
			pthread_create(&ws[i].thread, NULL, work, &ws[i]);
		struct hist *h = calloc(1, sizeof *h);
		uint64_t sent = 0, replies = 0, wrep = 0, errors = 0, reconn = 0, incomplete = 0, unsent = 0;
		for (int i = 0; i < nthreads; i++) {
			struct worker *w = &ws[i];
			pthread_join(w->thread, NULL);
			hist_merge(h, &w->h);
			sent += w->sent;
			replies += w->replies;
			wrep += w->window_replies;
			errors += w->errors;
			reconn += w->reconnects;
			incomplete += w->incomplete;
			unsent += w->unsent + w->overflow;
		}
		/* a point that ends with requests in flight leaves those
		 * connections busy: start the next one from clean ones */
		for (int i = 0; i < nthreads; i++)
			for (int j = 0; j < ws[i].nconns; j++)
				if (ws[i].conns[j].busy)
					conn_reset(&ws[i], &ws[i].conns[j]);
		double thr = (double)wrep / duration;
		double q[5] = { hist_quantile(h, .5) / 1e3, hist_quantile(h, .9) / 1e3, hist_quantile(h, .99) / 1e3,
				hist_quantile(h, .999) / 1e3, h->max / 1e3 };
		double mean = h->total ? h->sum / (double)h->total / 1e3 : 0;
		if (csv)
			printf("%s,%.0f,%d,%d,%.3f,%llu,%llu,%llu,%llu,%llu,%llu,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n",
			       kind_name(), rates[r], nconns, nthreads, duration, (unsigned long long)sent,
			       (unsigned long long)replies, (unsigned long long)errors, (unsigned long long)reconn,
			       (unsigned long long)incomplete, (unsigned long long)unsent, thr, mean, q[0], q[1],
			       q[2], q[3], q[4]);
		else
			printf("{\"proto\":\"%s\",\"offered\":%.0f,\"conns\":%d,\"threads\":%d,\"duration_s\":%.3f,"
			       "\"sent\":%llu,\"replies\":%llu,\"errors\":%llu,\"reconnects\":%llu,"
			       "\"incomplete\":%llu,\"unsent\":%llu,\"throughput\":%.1f,\"mean_us\":%.1f,"
			       "\"p50_us\":%.1f,\"p90_us\":%.1f,\"p99_us\":%.1f,\"p999_us\":%.1f,\"max_us\":%.1f}\n",
			       kind_name(), rates[r], nconns, nthreads, duration, (unsigned long long)sent,
			       (unsigned long long)replies, (unsigned long long)errors, (unsigned long long)reconn,
			       (unsigned long long)incomplete, (unsigned long long)unsent, thr, mean, q[0], q[1],
			       q[2], q[3], q[4]);
		fflush(stdout);
		if (!quiet)
			fprintf(stderr, "%10.0f %10.0f %8llu %7llu %9.1f %9.1f %9.1f %9.1f %9.1f\n", rates[r], thr,
				(unsigned long long)errors, (unsigned long long)(incomplete + unsent), mean, q[0],
				q[1], q[2], q[3]);
		if (errors || incomplete || unsent || replies != sent)
			bad = 1;
		free(h);
	}
	return check && bad ? 1 : 0;
}
