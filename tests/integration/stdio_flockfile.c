/* Many threads write groups of lines to one FILE under flockfile; every
 * group must come out contiguous and complete. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 32
#define GROUPS 200
#define LINES 5

static FILE *out;

static void *writer(void *arg)
{
	long id = (long)arg;
	for (int g = 0; g < GROUPS; g++) {
		flockfile(out);
		for (int l = 0; l < LINES; l++) {
			fprintf(out, "%ld %d %d ", id, g, l);
			fputs("payload\n", out);
		}
		funlockfile(out);
		/* A switch point between groups.  (Not inside one: a thread
		 * that parks while holding a stdio lock leaves other threads
		 * blocked in glibc's internal lock, which only the sysmon of
		 * the blocking-calls work will rescue; see docs/compat.md.) */
		sched_yield();
		if (g % 10 == 0)
			fflush(out);
	}
	return NULL;
}

int main(void)
{
	out = tmpfile();
	if (!out) {
		perror("tmpfile");
		return 1;
	}
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, writer, (void *)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	rewind(out);
	long id, cur_id = -1;
	int g, l, cur_g = -1, expect_l = 0, groups = 0, bad = 0;
	char word[16];
	int next_group[NTHREADS] = { 0 };
	while (fscanf(out, "%ld %d %d %15s", &id, &g, &l, word) == 4) {
		if (strcmp(word, "payload") != 0 || id < 0 || id >= NTHREADS) {
			bad++;
			continue;
		}
		if (l == 0) {
			if (expect_l != 0)
				bad++; /* previous group cut short */
			if (g != next_group[id])
				bad++; /* a thread's groups out of order */
			cur_id = id;
			cur_g = g;
		} else if (id != cur_id || g != cur_g || l != expect_l) {
			bad++; /* interleaved inside a group */
		}
		expect_l = (l + 1) % LINES;
		if (expect_l == 0) {
			groups++;
			next_group[id] = g + 1;
		}
	}
	printf("%d groups of %d lines from %d threads, %d broken\n", groups, LINES, NTHREADS, bad);
	return groups != NTHREADS * GROUPS || bad != 0;
}
