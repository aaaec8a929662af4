/* The frame of the benchmark servers (bench/echo, bench/ab): a TCP server
 * on a loopback port that gives each accepted connection a thread of its
 * own (64 KiB stack, detached), prints the port, and serves until stdin
 * closes. */
#pragma once

/* conn gets the connection's fd as (void *)(long)fd and closes it.
 * Returns the process's exit status. */
int tcpserv_run(void *(*conn)(void *), const char *name);
