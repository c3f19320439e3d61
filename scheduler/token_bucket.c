#include "scheduler/token_bucket.h"

void sched_token_bucket_init(struct sched_token_bucket *bucket, double burst) {
	bucket->tokens = burst;
	bucket->taken_ns = INT64_MIN;
}

bool sched_token_bucket_take(struct sched_token_bucket *bucket, double burst,
		int64_t refill_ns, int64_t now) {
	if (bucket->taken_ns != INT64_MIN && refill_ns > 0) {
		bucket->tokens += (double)(now - bucket->taken_ns) / (double)refill_ns;
	}
	if (bucket->tokens > burst) {
		bucket->tokens = burst;
	}
	bucket->taken_ns = now;
	if (bucket->tokens < 1) {
		return false;
	}
	bucket->tokens -= 1;
	return true;
}
