/* A connected pair of TCP sockets over loopback, for the integration
 * programs: sv[0] connected, sv[1] accepted.  0, or -1 on failure. */
#ifndef TCPPAIR_H
#define TCPPAIR_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static int tcp_pair(int sv[2])
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sa;
	int l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(l, 1) != 0 ||
	    getsockname(l, (struct sockaddr *)&sa, &len) != 0)
		return -1;
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (sv[0] < 0 || connect(sv[0], (struct sockaddr *)&sa, sizeof sa) != 0)
		return -1;
	sv[1] = accept(l, NULL, NULL);
	close(l);
	return sv[1] < 0 ? -1 : 0;
}

#endif
