/* The frame shared by the synthetic servers: a thread-per-connection TCP
 * server that answers each newline-terminated request with the same line,
 * after calling the server's serve_line on it.  Prints its port, serves until
 * stdin closes. */
#pragma once
#include <stddef.h>
#include <stdint.h>

/* Called by the connection's thread for each request line. */
void serve_line(const char *line, size_t len);
/* Called once before the first connection is accepted. */
void serve_init(void);
int lineserv_main(void);
/* A few microseconds of CPU that depend on the request, so it cannot be
 * hoisted or skipped. */
uint64_t lineserv_work(const char *line, size_t len, int rounds);
