#include "hist.h"

static int bucket(uint64_t v)
{
	if (v < 2 * HIST_SUB)
		return (int)v;
	int e = 63 - __builtin_clzll(v) - HIST_SUB_BITS;
	return (e + 1) * HIST_SUB + (int)((v >> e) - HIST_SUB);
}

static uint64_t bucket_top(int i)
{
	if (i < 2 * HIST_SUB)
		return (uint64_t)i;
	int e = i / HIST_SUB - 1;
	uint64_t m = (uint64_t)(i % HIST_SUB + HIST_SUB);
	return ((m + 1) << e) - 1;
}

void hist_record(struct hist *h, uint64_t v)
{
	h->count[bucket(v)]++;
	h->total++;
	h->sum += (double)v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *into, const struct hist *from)
{
	for (int i = 0; i < HIST_BUCKETS; i++)
		into->count[i] += from->count[i];
	into->total += from->total;
	into->sum += from->sum;
	if (from->max > into->max)
		into->max = from->max;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	if (h->total == 0)
		return 0;
	uint64_t want = (uint64_t)(q * (double)h->total + 0.999999);
	if (want < 1)
		want = 1;
	uint64_t seen = 0;
	for (int i = 0; i < HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= want) {
			uint64_t top = bucket_top(i);
			return top < h->max ? top : h->max;
		}
	}
	return h->max;
}
