#include "clients/tools/fairway-top/output.h"
#include "fairway-scheduler-unstable-v1-client-protocol.h"
#include <inttypes.h>
#include <string.h>

#define STAT(name) FAIRWAY_SCHEDULER_CLIENT_V1_STAT_##name

const char *top_header(void) {
	return "   ID     PID  PRI SMART CLASS        REQ/S  DISP%  MS/S "
		   " QUEUE  OUT/S  INPUT  PROCS GROUP    COMMAND";
}

static const char *group_kind_name(int64_t kind) {
	switch (kind) {
	case FAIRWAY_SCHEDULER_CLIENT_V1_GROUP_KIND_AUTOGROUP:
		return "autogroup";
	case FAIRWAY_SCHEDULER_CLIENT_V1_GROUP_KIND_CGROUP:
		return "cgroup";
	case FAIRWAY_SCHEDULER_CLIENT_V1_GROUP_KIND_CGROUP_V1:
		return "cgroup_v1";
	default:
		return NULL;
	}
}

/* "hinted/tracked", or "-" where fairway gives it no hints. */
static void format_processes(
		char *buf, size_t size, const struct top_client *c) {
	if (c->cur[STAT(PROCESSES)] < 0) {
		snprintf(buf, size, "-");
	} else {
		snprintf(buf, size, "%" PRId64 "/%" PRId64,
				c->cur[STAT(PROCESSES_HINTED)], c->cur[STAT(PROCESSES)]);
	}
}

/* What fairway set on its task group: "ag -5" (an autogroup's nice), "cg
 * 500" (a cgroup's weight), or "-". */
static void format_group(char *buf, size_t size, const struct top_client *c) {
	int64_t kind = c->cur[STAT(GROUP_KIND)];
	int64_t value = c->cur[STAT(GROUP_VALUE)];
	if (kind == FAIRWAY_SCHEDULER_CLIENT_V1_GROUP_KIND_AUTOGROUP) {
		snprintf(buf, size, "ag %" PRId64, value);
	} else if (group_kind_name(kind) != NULL) {
		snprintf(buf, size, "cg %" PRId64, value);
	} else {
		snprintf(buf, size, "-");
	}
}

static void format_input_age(char *buf, size_t size, int64_t age_ns) {
	if (age_ns < 0) {
		snprintf(buf, size, "-");
	} else if (age_ns < 100 * INT64_C(1000000000)) {
		snprintf(buf, size, "%.1fs", age_ns / 1e9);
	} else {
		snprintf(buf, size, "%" PRId64 "s", age_ns / INT64_C(1000000000));
	}
}

void top_format_row(char *buf, size_t size, const struct top_client *c) {
	char age[16], procs[24], group[24];
	format_input_age(age, sizeof(age), c->cur[STAT(INPUT_AGE_NS)]);
	format_processes(procs, sizeof(procs), c);
	format_group(group, sizeof(group), c);
	int64_t queue = c->cur[STAT(QUEUED_REQUEST_BYTES)] +
			c->cur[STAT(QUEUED_EVENT_BYTES)];
	const char *name = c->app_ids[0] != '\0' ? c->app_ids : "";
	snprintf(buf, size,
			"%5u %7d %4" PRId64 " %5" PRId64
			" %-11s %7.0f %5.1f %5.1f %6" PRId64
			" %6.1f %6s %6s %-8s %s%s%s%s%s",
			c->id, (int)c->pid, c->cur[STAT(BASE_PRIORITY)],
			c->cur[STAT(SMART_PRIORITY)], top_class_name(c->cur[STAT(CLASS)]),
			c->requests_per_s, c->dispatch_share * 100, c->dispatch_ms_per_s,
			queue, c->cur[STAT(OUTPUT_RATE_MFPS)] / 1e3, age, procs, group,
			c->comm, name[0] != '\0' ? " (" : "", name,
			name[0] != '\0' ? ")" : "",
			(c->flags & FAIRWAY_SCHEDULER_CLIENT_V1_FLAGS_XWAYLAND) ? " [X]"
																	: "");
}

void top_print_table(
		FILE *out, struct top_client **rows, size_t count, unsigned refresh) {
	fprintf(out, "fairway-top: refresh %u, %zu clients\n%s\n", refresh, count,
			top_header());
	char line[512];
	for (size_t i = 0; i < count; i++) {
		top_format_row(line, sizeof(line), rows[i]);
		fprintf(out, "%s\n", line);
	}
	fprintf(out, "\n");
	fflush(out);
}

/* A JSON string: comm and app_ids are the clients' own. */
static void json_string(FILE *out, const char *text) {
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p);
		} else if (*p < 0x20) {
			fprintf(out, "\\u%04x", *p);
		} else {
			fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void json_app_ids(FILE *out, const char *list) {
	fputc('[', out);
	char copy[sizeof(((struct top_client *)0)->app_ids)];
	snprintf(copy, sizeof(copy), "%s", list);
	bool first = true;
	for (char *save = NULL, *id = strtok_r(copy, ",", &save); id != NULL;
			id = strtok_r(NULL, ",", &save)) {
		if (!first) {
			fputc(',', out);
		}
		first = false;
		json_string(out, id);
	}
	fputc(']', out);
}

static void json_client(FILE *out, const struct top_client *c) {
	fprintf(out, "{\"id\":%u,\"pid\":%d,\"uid\":%u,\"comm\":", c->id,
			(int)c->pid, c->uid);
	json_string(out, c->comm);
	fprintf(out, ",\"app_ids\":");
	json_app_ids(out, c->app_ids);
	fprintf(out,
			",\"xwayland\":%s,\"self\":%s,\"priority\":%" PRId64
			",\"smart_priority\":%" PRId64 ",\"class\":",
			(c->flags & FAIRWAY_SCHEDULER_CLIENT_V1_FLAGS_XWAYLAND) ? "true"
																	: "false",
			(c->flags & FAIRWAY_SCHEDULER_CLIENT_V1_FLAGS_SELF) ? "true"
																: "false",
			c->cur[STAT(BASE_PRIORITY)], c->cur[STAT(SMART_PRIORITY)]);
	int64_t class = c->cur[STAT(CLASS)];
	if (class < 0) {
		fprintf(out, "null");
	} else {
		json_string(out, top_class_name(class));
	}
	fprintf(out, ",\"hint_class\":");
	int64_t hint = c->cur[STAT(HINT_CLASS)];
	if (hint < 0) {
		fprintf(out, "null");
	} else {
		json_string(out, top_class_name(hint));
	}
	fprintf(out,
			",\"ready\":%s,\"requests_per_s\":%.1f,\"events_per_s\":%.1f,"
			"\"dispatch_ms_per_s\":%.3f,\"dispatch_share\":%.4f,"
			"\"dispatch_ms\":%.3f,\"requests\":%" PRId64 ",\"events\":%" PRId64
			",\"turns\":%" PRId64 ",\"expired\":%" PRId64 ",\"boosts\":%" PRId64
			",\"throttled\":%" PRId64 ",\"queued_request_bytes\":%" PRId64
			",\"queued_event_bytes\":%" PRId64 ",\"output_fps\":%.3f,"
			"\"busy\":%.6f,\"input_age_ms\":",
			c->cur[STAT(READY)] > 0 ? "true" : "false", c->requests_per_s,
			c->events_per_s, c->dispatch_ms_per_s, c->dispatch_share,
			c->cur[STAT(DISPATCH_NS)] / 1e6, c->cur[STAT(REQUESTS)],
			c->cur[STAT(EVENTS)], c->cur[STAT(TURNS)], c->cur[STAT(EXPIRED)],
			c->cur[STAT(BOOSTS)], c->cur[STAT(THROTTLED)],
			c->cur[STAT(QUEUED_REQUEST_BYTES)],
			c->cur[STAT(QUEUED_EVENT_BYTES)],
			c->cur[STAT(OUTPUT_RATE_MFPS)] / 1e3, c->cur[STAT(BUSY_PPM)] / 1e6);
	int64_t age = c->cur[STAT(INPUT_AGE_NS)];
	if (age < 0) {
		fprintf(out, "null");
	} else {
		fprintf(out, "%.1f", age / 1e6);
	}
	/* null where fairway gives it no hints, or is older than version 2. */
	if (c->cur[STAT(PROCESSES)] < 0) {
		fprintf(out,
				",\"processes\":null,\"processes_hinted\":null,"
				"\"threads\":null");
	} else {
		fprintf(out,
				",\"processes\":%" PRId64 ",\"processes_hinted\":%" PRId64
				",\"threads\":%" PRId64,
				c->cur[STAT(PROCESSES)], c->cur[STAT(PROCESSES_HINTED)],
				c->cur[STAT(THREADS)]);
	}
	const char *kind = group_kind_name(c->cur[STAT(GROUP_KIND)]);
	if (kind == NULL) {
		fprintf(out, ",\"group\":null}");
	} else {
		fprintf(out, ",\"group\":{\"kind\":\"%s\",\"%s\":%" PRId64 "}}", kind,
				c->cur[STAT(GROUP_KIND)] ==
								FAIRWAY_SCHEDULER_CLIENT_V1_GROUP_KIND_AUTOGROUP
						? "nice"
						: "weight",
				c->cur[STAT(GROUP_VALUE)]);
	}
}

void top_print_json(FILE *out, struct top_client **rows, size_t count) {
	fputc('[', out);
	for (size_t i = 0; i < count; i++) {
		if (i > 0) {
			fputc(',', out);
		}
		json_client(out, rows[i]);
	}
	fputs("]\n", out);
	fflush(out);
}
