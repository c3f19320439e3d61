#ifndef FAIRWAY_SCHEDULER_TOKEN_BUCKET_H
#define FAIRWAY_SCHEDULER_TOKEN_BUCKET_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A rate limit: up to burst at once, then one every refill_ns. It starts
 * full, and its time starts at the first take.
 */
struct sched_token_bucket {
	double tokens;
	int64_t taken_ns; /* INT64_MIN: never taken from */
};

void sched_token_bucket_init(struct sched_token_bucket *bucket, double burst);
/*
 * Takes a token at now if there is one. refill_ns <= 0: no refill, the
 * burst is all there is.
 */
bool sched_token_bucket_take(struct sched_token_bucket *bucket, double burst,
		int64_t refill_ns, int64_t now);
/*
 * Whether a take at now would succeed, without taking: for work that
 * costs a token only if it turns out to be needed.
 */
bool sched_token_bucket_ready(const struct sched_token_bucket *bucket,
		double burst, int64_t refill_ns, int64_t now);

#endif
