#include "scheduler/sched_clock.h"
#include <time.h>

int64_t sched_clock_now_ns(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int64_t sched_clock_thread_cpu_ns(void) {
	struct timespec now;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}
