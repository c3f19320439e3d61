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

bool cpu_pressure_sample(
		struct cpu_pressure *pressure, uint64_t total_us, int64_t now_ns) {
	if (!pressure->sampled || total_us < pressure->total_us ||
			now_ns <= pressure->at_ns) {
		/* A first sample, or a counter that went back: a new base. */
		pressure->sampled = true;
		pressure->total_us = total_us;
		pressure->at_ns = now_ns;
		return false;
	}
	double share = (double)(total_us - pressure->total_us) * 1000.0 /
			(double)(now_ns - pressure->at_ns);
	pressure->total_us = total_us;
	pressure->at_ns = now_ns;
	bool contended = pressure->contended ? share >= CPU_PRESSURE_LEAVE
										 : share >= CPU_PRESSURE_ENTER;
	if (contended == pressure->contended) {
		return false;
	}
	pressure->contended = contended;
	return true;
}
