/* The per-thread state libc sets up in a new thread before its start
 * routine (NPTL's start_thread): the ctype tables behind isalpha and
 * toupper, read through TLS pointers that start out empty, and with them
 * number formatting and parsing.  Every thread must get what main gets. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void sample(char *out, size_t n)
{
	snprintf(out, n, "%d%d%d %c%c %g %.3e %f", isalpha('a') != 0, isdigit('7') != 0, isspace('x') != 0,
		 toupper('q'), tolower('Q'), 1.5, strtod("2.5e3", NULL), atof("0.25"));
}

static void *thread(void *arg)
{
	sample(arg, 128);
	return NULL;
}

int main(void)
{
	char want[128], got[8][128];
	sample(want, sizeof want);
	pthread_t t[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, thread, got[i]);
	int same = 1;
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], NULL);
		same &= strcmp(got[i], want) == 0;
	}
	printf("main: %s\n", want);
	CHECK(same, "8 threads classify, convert and format as main does");
	return failures != 0;
}
