#ifndef FAIRWAY_SCHEDULER_STATS_FILE_H
#define FAIRWAY_SCHEDULER_STATS_FILE_H

struct capped_file;
struct gate;
struct wl_event_loop;

/*
 * fairway --stats FILE: every period, one JSON line per connected client
 * (scheduler/client_stats.h says what is in it). Writing it changes
 * nothing in the scheduling.
 */
struct gate_stats_file;

/*
 * Writes to `out` (capped_file.h; not closed here) every period_ms, on a
 * timer of loop.
 */
struct gate_stats_file *gate_stats_file_create(struct gate *gate,
		struct wl_event_loop *loop, struct capped_file *out, int period_ms);
/* Writes a last record of every client. Accepts NULL. */
void gate_stats_file_destroy(struct gate_stats_file *file);

#endif
