#ifndef FAIRWAY_CLIENTS_COMMON_TIME_H
#define FAIRWAY_CLIENTS_COMMON_TIME_H

#include <stdint.h>

#include <time.h>

/*
 * Every measurement in the clients uses CLOCK_MONOTONIC, the clock that
 * wp_presentation reports on wlroots compositors, so that generation, commit
 * and presentation times can be subtracted directly. A compositor whose
 * wp_presentation reports another steady clock (weston's headless backend
 * uses CLOCK_MONOTONIC_RAW) makes the client switch to that clock, once,
 * before it takes its first timestamp.
 */
uint64_t fw_now_ns(void);

void fw_time_use_clock(clockid_t clock);

clockid_t fw_time_clock(void);

/* "CLOCK_MONOTONIC" and so on, for the JSON summaries. */
const char *fw_clock_name(clockid_t clock);

double fw_ns_to_ms(int64_t ns);

/* Milliseconds from now until deadline, clamped to [0, INT32_MAX]. */
int fw_ms_until(uint64_t deadline_ns);

/* ns as a struct timespec, for ppoll and nanosleep. */
struct timespec fw_ns_to_timespec(uint64_t ns);

/* Sleeps without touching Wayland; returns early on a stop signal. */
void fw_sleep_ns(uint64_t ns);

#endif
