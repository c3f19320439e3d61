#include "clients/common/json.h"

#include <inttypes.h>
#include <math.h>

static void key(struct fw_json *json, const char *name) {
	fprintf(json->file, "%s\"%s\":", json->need_comma ? "," : "", name);
	json->need_comma = true;
}

static void number(FILE *f, double value) {
	if (isfinite(value)) {
		fprintf(f, "%.3f", value);
	} else {
		fputs("null", f);
	}
}

void fw_json_begin(struct fw_json *json, FILE *file) {
	json->file = file;
	json->need_comma = false;
	fputc('{', file);
}

void fw_json_string(struct fw_json *json, const char *name, const char *value) {
	key(json, name);
	fputc('"', json->file);
	for (const unsigned char *p = (const unsigned char *)value; *p != '\0';
			p++) {
		if (*p == '"' || *p == '\\') {
			fprintf(json->file, "\\%c", *p);
		} else if (*p < 0x20) {
			fprintf(json->file, "\\u%04x", *p);
		} else {
			fputc(*p, json->file);
		}
	}
	fputc('"', json->file);
}

void fw_json_uint(struct fw_json *json, const char *name, uint64_t value) {
	key(json, name);
	fprintf(json->file, "%" PRIu64, value);
}

void fw_json_double(struct fw_json *json, const char *name, double value) {
	key(json, name);
	number(json->file, value);
}

void fw_json_uint_array(struct fw_json *json, const char *name,
		const uint64_t *values, size_t count) {
	key(json, name);
	fputc('[', json->file);
	for (size_t i = 0; i < count; i++) {
		fprintf(json->file, "%s%" PRIu64, i > 0 ? "," : "", values[i]);
	}
	fputc(']', json->file);
}

void fw_json_summary(struct fw_json *json, const char *name,
		const struct fw_summary *s, bool with_stddev) {
	key(json, name);
	FILE *f = json->file;
	fprintf(f, "{\"count\":%zu", s->count);
	/* Without samples a mean or percentile does not exist: say null. */
	double nan_if_empty = s->count > 0 ? 0 : NAN;
	fputs(",\"mean\":", f);
	number(f, s->mean + nan_if_empty);
	fputs(",\"p50\":", f);
	number(f, s->p50 + nan_if_empty);
	fputs(",\"p90\":", f);
	number(f, s->p90 + nan_if_empty);
	fputs(",\"p99\":", f);
	number(f, s->p99 + nan_if_empty);
	fputs(",\"max\":", f);
	number(f, s->max + nan_if_empty);
	if (with_stddev) {
		fputs(",\"stddev\":", f);
		number(f, s->stddev + nan_if_empty);
	}
	fputc('}', f);
}

void fw_json_end(struct fw_json *json) {
	fputs("}\n", json->file);
	fflush(json->file);
}
