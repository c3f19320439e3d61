#include "scheduler/hints/cpu_pressure.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

bool cpu_pressure_parse(const char *text, uint64_t *total_us) {
	const char *line = text;
	while (line != NULL && *line != '\0') {
		if (strncmp(line, "some ", 5) == 0) {
			const char *total = strstr(line, " total=");
			const char *end = strchr(line, '\n');
			if (total == NULL || (end != NULL && total > end)) {
				return false;
			}
			return sscanf(total, " total=%" SCNu64, total_us) == 1;
		}
		line = strchr(line, '\n');
		if (line != NULL) {
			line++;
		}
	}
	return false;
}

bool cpu_pressure_parse_busy(const char *text, uint64_t *ticks) {
	/* user nice system idle iowait irq softirq (steal and the guests
	 * after: steal is not the guest's, guest time is in user's). */
	uint64_t v[7];
	if (strncmp(text, "cpu ", 4) != 0 ||
			sscanf(text + 4,
					" %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
					" %" SCNu64 " %" SCNu64,
					&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) != 7) {
		return false;
	}
	*ticks = v[0] + v[1] + v[2] + v[5] + v[6];
	return true;
}

static bool counters_went_back(const struct cpu_pressure_reading *was,
		const struct cpu_pressure_reading *now) {
	return now->stalled_us < was->stalled_us || now->busy_ns < was->busy_ns;
}

bool cpu_pressure_sample(struct cpu_pressure *pressure,
		const struct cpu_pressure_reading *reading, int64_t now_ns) {
	if (!pressure->sampled || counters_went_back(&pressure->last, reading) ||
			now_ns <= pressure->at_ns) {
		/* A first sample, or a counter that went back: a new base. */
		pressure->sampled = true;
		pressure->last = *reading;
		pressure->at_ns = now_ns;
		return false;
	}
	double window = (double)(now_ns - pressure->at_ns);
	pressure->stalled_share =
			(double)(reading->stalled_us - pressure->last.stalled_us) * 1000.0 /
			window;
	/*
	 * fairway's and its clients' time can grow by more than the machine's
	 * busy time in a window: the two are read at slightly different
	 * moments, and a client that left takes its time with it.
	 */
	uint64_t busy = reading->busy_ns - pressure->last.busy_ns;
	uint64_t own = reading->own_ns >= pressure->last.own_ns
			? reading->own_ns - pressure->last.own_ns
			: 0;
	pressure->others_cpus = busy > own ? (double)(busy - own) / window : 0.0;
	pressure->main_share = reading->main_ns >= pressure->last.main_ns
			? (double)(reading->main_ns - pressure->last.main_ns) / window
			: 0.0;
	pressure->last = *reading;
	pressure->at_ns = now_ns;

	/* Each mark is the lower one to leave by while contended. */
	bool in = pressure->contended;
	if (pressure->stalled_share <
			(in ? CPU_PRESSURE_LEAVE : CPU_PRESSURE_ENTER)) {
		pressure->why = CPU_PRESSURE_FREE;
	} else if (pressure->others_cpus <
			(in ? CPU_PRESSURE_OTHERS_LEAVE : CPU_PRESSURE_OTHERS_ENTER)) {
		pressure->why = CPU_PRESSURE_OWN_LOAD;
	} else if (pressure->main_share >= CPU_PRESSURE_MAIN_MAX) {
		pressure->why = CPU_PRESSURE_MAIN_BUSY;
	} else {
		pressure->why = CPU_PRESSURE_OTHERS;
	}
	bool contended = pressure->why == CPU_PRESSURE_OTHERS;
	if (contended == pressure->contended) {
		return false;
	}
	pressure->contended = contended;
	return true;
}
