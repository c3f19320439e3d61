#include "compositor/parse_number.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool fw_parse_int(const char *text, long min, long max, int *out) {
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || value < min ||
			value > max) {
		return false;
	}
	*out = (int)value;
	return true;
}

bool fw_parse_double(const char *text, double min, double max, double *out) {
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
