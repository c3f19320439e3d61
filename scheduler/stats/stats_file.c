#include "scheduler/stats/stats_file.h"
#include "scheduler/capped_file.h"
#include "scheduler/gate/client_stats.h"
#include "scheduler/gate/gate.h"
#include "scheduler/sched_clock.h"
#include <stdlib.h>
#include <string.h>

struct gate_stats_file {
	struct gate *gate;
	struct capped_file *out;
	int period_ms;
	int64_t start_ns;
	struct wl_event_source *timer;
	struct gate_stats_extra extra;
};

/* A client's line with the compositor's fields before its closing brace. */
static void write_client(
		struct gate_stats_file *file, struct gate_connection *conn, double t) {
	char line[GATE_CLIENT_STATS_LINE_MAX + 1024];
	int len = gate_client_stats_line(conn, t, line, GATE_CLIENT_STATS_LINE_MAX);
	if (len > 0 && (size_t)len < GATE_CLIENT_STATS_LINE_MAX &&
			file->extra.client_fields != NULL) {
		size_t room = sizeof(line) - (size_t)len;
		int more = file->extra.client_fields(file->extra.data,
				gate_connection_get_client(conn), line + len - 1, room);
		if (more >= 0 && (size_t)more + 1 < room) {
			strcpy(line + len - 1 + more, "}");
		} else {
			/* Too long: the gate's fields alone. */
			line[len - 1] = '}';
			line[len] = '\0';
		}
	}
	capped_file_printf(file->out, "%s\n", line);
}

struct record {
	struct gate_stats_file *file;
	double t;
};

static enum wl_iterator_result write_record(
		struct gate_connection *conn, void *data) {
	struct record *record = data;
	write_client(record->file, conn, record->t);
	return WL_ITERATOR_CONTINUE;
}

static void write_records(struct gate_stats_file *file) {
	struct record record = {
			.file = file,
			.t = (sched_clock_now_ns() - file->start_ns) / 1e9,
	};
	gate_for_each_connection(file->gate, write_record, &record);
	if (file->extra.write_lines != NULL) {
		file->extra.write_lines(file->extra.data, file->out, record.t);
	}
	capped_file_flush(file->out);
}

static int handle_timer(void *data) {
	struct gate_stats_file *file = data;
	write_records(file);
	wl_event_source_timer_update(file->timer, file->period_ms);
	return 0;
}

struct gate_stats_file *gate_stats_file_create(struct gate *gate,
		struct wl_event_loop *loop, struct capped_file *out, int period_ms) {
	struct gate_stats_file *file = calloc(1, sizeof(*file));
	if (!file) {
		return NULL;
	}
	file->gate = gate;
	file->out = out;
	file->period_ms = period_ms > 0 ? period_ms : 1000;
	file->start_ns = sched_clock_now_ns();
	file->timer = wl_event_loop_add_timer(loop, handle_timer, file);
	if (!file->timer) {
		free(file);
		return NULL;
	}
	wl_event_source_timer_update(file->timer, file->period_ms);
	return file;
}

void gate_stats_file_set_extra(
		struct gate_stats_file *file, const struct gate_stats_extra *extra) {
	if (extra != NULL) {
		file->extra = *extra;
	} else {
		memset(&file->extra, 0, sizeof(file->extra));
	}
}

void gate_stats_file_destroy(struct gate_stats_file *file) {
	if (!file) {
		return;
	}
	write_records(file);
	wl_event_source_remove(file->timer);
	free(file);
}
