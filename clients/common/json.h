#ifndef FAIRWAY_CLIENTS_COMMON_JSON_H
#define FAIRWAY_CLIENTS_COMMON_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clients/common/stats.h"

/*
 * Writes one flat JSON object on a single line, the last line a client
 * prints. Keys are trusted literals; string values are escaped.
 */
struct fw_json {
	FILE *file;
	bool need_comma;
};

void fw_json_begin(struct fw_json *json, FILE *file);

void fw_json_string(struct fw_json *json, const char *key, const char *value);

void fw_json_uint(struct fw_json *json, const char *key, uint64_t value);

/* Non-finite values are written as null, which JSON has no number for. */
void fw_json_double(struct fw_json *json, const char *key, double value);

void fw_json_uint_array(struct fw_json *json, const char *key,
		const uint64_t *values, size_t count);

/* {"count","mean","p50","p90","p99","max"} in ms, plus "stddev" if asked. */
void fw_json_summary(struct fw_json *json, const char *key,
		const struct fw_summary *summary, bool with_stddev);

void fw_json_end(struct fw_json *json);

#endif
