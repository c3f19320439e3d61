#ifndef FAIRWAY_SCHEDULER_HINTS_CPU_PRESSURE_H
#define FAIRWAY_SCHEDULER_HINTS_CPU_PRESSURE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Whether the CPU is contended now, from the kernel's pressure stall
 * information (/proc/pressure/cpu, Linux 4.20 and later where PSI is on):
 * its "some" line's total counts the microseconds in which at least one
 * runnable task waited for a CPU. The share of a sampling window spent so
 * is that total's growth over the window's length. Its own averages
 * (avg10 and longer) would take seconds to follow a load that comes and
 * goes.
 *
 * Entering takes CPU_PRESSURE_ENTER of a window, leaving less than
 * CPU_PRESSURE_LEAVE, so that a load near one mark does not flip the
 * answer at each sample.
 */
#define CPU_PRESSURE_ENTER 0.5
#define CPU_PRESSURE_LEAVE 0.2

struct cpu_pressure {
	bool sampled; /* a first sample was taken */
	uint64_t total_us;
	int64_t at_ns;
	bool contended;
};

/* The "some" line's total in TEXT (the file's contents); false if none. */
bool cpu_pressure_parse(const char *text, uint64_t *total_us);

/*
 * A sample taken at NOW_NS. Returns true when the answer changed; the
 * answer is in pressure->contended. The first sample only sets the base.
 */
bool cpu_pressure_sample(
		struct cpu_pressure *pressure, uint64_t total_us, int64_t now_ns);

#endif
