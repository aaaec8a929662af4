/* Many threads write groups of lines to one FILE, each group under
 * flockfile/funlockfile and made of several stdio calls (fprintf, fputs,
 * fputc, fwrite, putc_unlocked).  Some lines are longer than the stdio
 * buffer, so the buffer is written out in the middle of a group.  Reading
 * the file back, every group must be contiguous, complete and intact, and
 * each thread's groups must appear in order. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NTHREADS 32
#define GROUPS 150
#define LINES 4
#define MAXPAD 12000 /* > BUFSIZ */

static FILE *out;

/* Deterministic padding length and character for a line. */
static size_t pad_len(long id, int g, int l)
{
	uint32_t h = (uint32_t)(id * 7919 + g * 131 + l * 17) * 2654435761u;
	if ((h >> 4) % 16 == 0)
		return 9000 + (h >> 8) % (MAXPAD - 9000); /* a long line */
	return (h >> 8) % 80;
}

static char pad_char(long id, int l)
{
	return (char)('a' + (id + l) % 26);
}

static void *writer(void *arg)
{
	long id = (long)arg;
	char *pad = malloc(MAXPAD);
	for (int g = 0; g < GROUPS; g++) {
		flockfile(out);
		fprintf(out, "begin %ld %d\n", id, g);
		for (int l = 0; l < LINES; l++) {
			size_t n = pad_len(id, g, l);
			memset(pad, pad_char(id, l), n);
			fprintf(out, "%ld %d %d %zu ", id, g, l, n);
			fwrite(pad, 1, n, out);
			fputc(' ', out);
			putc_unlocked('|', out);
			fputs("\n", out);
		}
		fputs("end\n", out);
		funlockfile(out);
		/* A switch point between groups, never inside one. */
		if (g % 3 == 0)
			sched_yield();
		if (g % 10 == 0)
			fflush(out);
	}
	free(pad);
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
		if (pthread_create(&t[i], NULL, writer, (void *)i) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	if (fflush(out) != 0 || fseek(out, 0, SEEK_SET) != 0) {
		perror("tmpfile");
		return 1;
	}

	size_t cap = MAXPAD + 256;
	char *line = malloc(cap);
	int next_group[NTHREADS] = { 0 };
	long groups = 0, broken = 0, lines = 0;
	long cur_id = -1;
	int cur_g = -1, expect = -1; /* -1: between groups; 0..LINES-1: line; LINES: "end" */
	while (fgets(line, (int)cap, out)) {
		lines++;
		long id;
		int g, l, used = 0;
		size_t n;
		if (expect < 0) {
			if (sscanf(line, "begin %ld %d%n", &id, &g, &used) != 2 || line[used] != '\n' || id < 0 ||
			    id >= NTHREADS || g != next_group[id]) {
				if (broken++ < 5)
					fprintf(stderr, "bad group start at line %ld: %.60s\n", lines, line);
				continue;
			}
			cur_id = id;
			cur_g = g;
			expect = 0;
		} else if (expect < LINES) {
			int ok = sscanf(line, "%ld %d %d %zu%n", &id, &g, &l, &n, &used) == 4 && id == cur_id &&
				 g == cur_g && l == expect && n == pad_len(id, g, l) && line[used] == ' ';
			if (ok) {
				used++;
				char c = pad_char(id, l);
				for (size_t i = 0; i < n && ok; i++)
					ok = line[used + i] == c;
				ok = ok && strcmp(line + used + n, " |\n") == 0;
			}
			if (!ok) {
				if (broken++ < 5)
					fprintf(stderr, "bad line %ld in group %ld/%d: %.60s\n", lines, cur_id, cur_g,
						line);
				expect = -1;
				continue;
			}
			expect++;
		} else {
			if (strcmp(line, "end\n") != 0) {
				if (broken++ < 5)
					fprintf(stderr, "group %ld/%d not ended at line %ld\n", cur_id, cur_g, lines);
			} else {
				groups++;
				next_group[cur_id]++;
			}
			expect = -1;
		}
	}
	int all_groups = 1;
	for (int i = 0; i < NTHREADS; i++)
		all_groups &= next_group[i] == GROUPS;
	CHECK(broken == 0 && expect == -1, "every group contiguous and intact");
	CHECK(all_groups, "every thread's groups present, in order");
	CHECK(lines == (long)NTHREADS * GROUPS * (LINES + 2), "no extra or missing lines");
	printf("%ld groups of %d lines from %d threads\n", groups, LINES, NTHREADS);
	free(line);
	fclose(out);
	return failures != 0;
}
