#ifndef FAIRWAY_SCHEDULER_STATS_STATS_FILE_H
#define FAIRWAY_SCHEDULER_STATS_STATS_FILE_H

#include <stddef.h>

struct capped_file;
struct gate;
struct wl_event_loop;
struct wl_client;

/*
 * fairway --stats FILE: every period, one JSON line per connected client
 * (scheduler/gate/client_stats.h says what is in it). Writing it changes
 * nothing in the scheduling.
 */
struct gate_stats_file;

/*
 * Writes to `out` (scheduler/capped_file.h; not closed here) every period_ms,
 * on a timer of loop.
 */
struct gate_stats_file *gate_stats_file_create(struct gate *gate,
		struct wl_event_loop *loop, struct capped_file *out, int period_ms);
/*
 * What the compositor adds (its frame pacing, frame/frame_timing.h): fields
 * appended to each client's object, and lines of its own after the
 * clients'. Either may be NULL.
 */
struct gate_stats_extra {
	/* Writes text that starts with a comma, or nothing; returns what
	 * snprintf returns. */
	int (*client_fields)(
			void *data, struct wl_client *client, char *buf, size_t size);
	void (*write_lines)(void *data, struct capped_file *out, double t);
	void *data;
};

void gate_stats_file_set_extra(
		struct gate_stats_file *file, const struct gate_stats_extra *extra);

/* Writes a last record of every client. Accepts NULL. */
void gate_stats_file_destroy(struct gate_stats_file *file);

#endif
