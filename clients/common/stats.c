#include "clients/common/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fw_stats_init(struct fw_stats *stats) {
	memset(stats, 0, sizeof(*stats));
}

void fw_stats_finish(struct fw_stats *stats) {
	free(stats->values);
	memset(stats, 0, sizeof(*stats));
}

int fw_stats_add(struct fw_stats *stats, double ms) {
	if (stats->len == stats->cap) {
		size_t cap = stats->cap == 0 ? 256 : stats->cap * 2;
		double *values = realloc(stats->values, cap * sizeof(*values));
		if (values == NULL) {
			return -1;
		}
		stats->values = values;
		stats->cap = cap;
	}
	stats->values[stats->len++] = ms;
	return 0;
}

static int compare_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double nearest_rank(const double *sorted, size_t n, double pct) {
	size_t rank = (size_t)ceil(pct / 100.0 * (double)n);
	if (rank < 1) {
		rank = 1;
	}
	if (rank > n) {
		rank = n;
	}
	return sorted[rank - 1];
}

void fw_stats_summarize(
		const struct fw_stats *stats, struct fw_summary *summary) {
	memset(summary, 0, sizeof(*summary));
	size_t n = stats->len;
	if (n == 0) {
		return;
	}
	double *sorted = malloc(n * sizeof(*sorted));
	if (sorted == NULL) {
		return;
	}
	memcpy(sorted, stats->values, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_double);

	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		sum += sorted[i];
	}
	double mean = sum / (double)n;
	double sq = 0;
	for (size_t i = 0; i < n; i++) {
		sq += (sorted[i] - mean) * (sorted[i] - mean);
	}

	summary->count = n;
	summary->mean = mean;
	summary->stddev = sqrt(sq / (double)n);
	summary->p50 = nearest_rank(sorted, n, 50);
	summary->p90 = nearest_rank(sorted, n, 90);
	summary->p99 = nearest_rank(sorted, n, 99);
	summary->max = sorted[n - 1];
	free(sorted);
}

int fw_stats_write(const struct fw_stats *stats, const char *path) {
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		return -1;
	}
	for (size_t i = 0; i < stats->len; i++) {
		fprintf(f, "%.4f\n", stats->values[i]);
	}
	return fclose(f) == 0 ? 0 : -1;
}
