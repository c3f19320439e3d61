#include "scheduler/stats_file.h"
#include "scheduler/capped_file.h"
#include "scheduler/client_stats.h"
#include "scheduler/clock.h"
#include "scheduler/gate.h"
#include <stdlib.h>

struct gate_stats_file {
	struct gate *gate;
	struct capped_file *out;
	int period_ms;
	int64_t start_ns;
	struct wl_event_source *timer;
};

struct record {
	struct gate_stats_file *file;
	double t;
};

static enum wl_iterator_result write_record(
		struct gate_connection *conn, void *data) {
	struct record *record = data;
	char line[GATE_CLIENT_STATS_LINE_MAX];
	gate_client_stats_line(conn, record->t, line, sizeof(line));
	capped_file_printf(record->file->out, "%s\n", line);
	return WL_ITERATOR_CONTINUE;
}

static void write_records(struct gate_stats_file *file) {
	struct record record = {
			.file = file,
			.t = (sched_clock_now_ns() - file->start_ns) / 1e9,
	};
	gate_for_each_connection(file->gate, write_record, &record);
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

void gate_stats_file_destroy(struct gate_stats_file *file) {
	if (!file) {
		return;
	}
	write_records(file);
	wl_event_source_remove(file->timer);
	free(file);
}
