#include "scheduler/parse_number.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool sched_parse_long(const char *text, long min, long max, long *out) {
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || value < min ||
			value > max) {
		return false;
	}
	*out = value;
	return true;
}

bool sched_parse_int(const char *text, long min, long max, int *out) {
	long value;
	if (!sched_parse_long(text, min, max, &value)) {
		return false;
	}
	*out = (int)value;
	return true;
}

bool sched_parse_double(const char *text, double min, double max, double *out) {
	char *end;
	errno = 0;
	double value = strtod(text, &end);
	if (errno != 0 || end == text || *end != '\0' || !isfinite(value) ||
			value < min || value > max) {
		return false;
	}
	*out = value;
	return true;
}
