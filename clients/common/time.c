#include "clients/common/time.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>

static clockid_t fw_clock = CLOCK_MONOTONIC;

void fw_time_use_clock(clockid_t clock) {
	fw_clock = clock;
}

clockid_t fw_time_clock(void) {
	return fw_clock;
}

const char *fw_clock_name(clockid_t clock) {
	switch (clock) {
	case CLOCK_MONOTONIC:
		return "CLOCK_MONOTONIC";
	case CLOCK_MONOTONIC_RAW:
		return "CLOCK_MONOTONIC_RAW";
	case CLOCK_BOOTTIME:
		return "CLOCK_BOOTTIME";
	case CLOCK_REALTIME:
		return "CLOCK_REALTIME";
	default:
		return "unknown";
	}
}

uint64_t fw_now_ns(void) {
	struct timespec ts;
	clock_gettime(fw_clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double fw_ns_to_ms(int64_t ns) {
	return (double)ns / 1e6;
}

int fw_ms_until(uint64_t deadline_ns) {
	uint64_t now = fw_now_ns();
	if (now >= deadline_ns) {
		return 0;
	}
	/* Round up so that a poll() never wakes just before the deadline. */
	uint64_t ms = (deadline_ns - now + 999999u) / 1000000u;
	return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

struct timespec fw_ns_to_timespec(uint64_t ns) {
	return (struct timespec){
			.tv_sec = (time_t)(ns / 1000000000u),
			.tv_nsec = (long)(ns % 1000000000u),
	};
}

void fw_sleep_ns(uint64_t ns) {
	struct timespec ts = fw_ns_to_timespec(ns);
	/* An interrupted sleep is fine: the caller checks its stop flag. */
	nanosleep(&ts, NULL);
}
