#include "scheduler/token_bucket.h"

void sched_token_bucket_init(struct sched_token_bucket *bucket, double burst) {
	bucket->tokens = burst;
	bucket->taken_ns = INT64_MIN;
}

/* What the bucket holds at now. */
static double tokens_at(const struct sched_token_bucket *bucket, double burst,
		int64_t refill_ns, int64_t now) {
	double tokens = bucket->tokens;
	if (bucket->taken_ns != INT64_MIN && refill_ns > 0) {
		tokens += (double)(now - bucket->taken_ns) / (double)refill_ns;
	}
	return tokens > burst ? burst : tokens;
}

bool sched_token_bucket_ready(const struct sched_token_bucket *bucket,
		double burst, int64_t refill_ns, int64_t now) {
	return tokens_at(bucket, burst, refill_ns, now) >= 1;
}

bool sched_token_bucket_take(struct sched_token_bucket *bucket, double burst,
		int64_t refill_ns, int64_t now) {
	bucket->tokens = tokens_at(bucket, burst, refill_ns, now);
	bucket->taken_ns = now;
	if (bucket->tokens < 1) {
		return false;
	}
	bucket->tokens -= 1;
	return true;
}
