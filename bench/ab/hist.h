/* A log-linear latency histogram in the manner of HdrHistogram: values
 * below 2*HIST_SUB are exact, above that each power of two is cut into
 * HIST_SUB equal buckets, so any recorded value is known to within
 * 1/HIST_SUB (under 1%) at a fixed 23 KiB per histogram. */
#pragma once
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count[HIST_BUCKETS];
	uint64_t total, max;
	double sum;
};

void hist_record(struct hist *h, uint64_t v);
void hist_merge(struct hist *into, const struct hist *from);
/* The smallest recorded value v such that a fraction q of all values is
 * at most v, reported as the top of its bucket (never an underestimate). */
uint64_t hist_quantile(const struct hist *h, double q);
