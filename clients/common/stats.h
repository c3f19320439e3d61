#ifndef FAIRWAY_CLIENTS_COMMON_STATS_H
#define FAIRWAY_CLIENTS_COMMON_STATS_H

#include <stddef.h>

/* A growable list of samples in milliseconds. */
struct fw_stats {
	double *values;
	size_t len, cap;
};

struct fw_summary {
	size_t count;
	double mean, stddev, p50, p90, p99, max;
};

void fw_stats_init(struct fw_stats *stats);

void fw_stats_finish(struct fw_stats *stats);

/* Returns -1 when out of memory; the sample is then lost. */
int fw_stats_add(struct fw_stats *stats, double ms);

/*
 * Percentiles use the nearest-rank method on a sorted copy, so p50/p90/p99
 * are always samples that were actually observed. stddev is the population
 * standard deviation. An empty list yields count 0 and zeros elsewhere.
 */
void fw_stats_summarize(
		const struct fw_stats *stats, struct fw_summary *summary);

/*
 * Writes every sample, in the order taken, one a line in ms, to path (for
 * plotting a distribution). Returns -1 with errno set on failure.
 */
int fw_stats_write(const struct fw_stats *stats, const char *path);

#endif
