#ifndef FAIRWAY_CLIENTS_COMMON_MOTION_LOG_H
#define FAIRWAY_CLIENTS_COMMON_MOTION_LOG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clients/common/stats.h"

/*
 * The pointer motions an echo client generated, and what became of each:
 * delivered (matched by position), drawn by a commit, and shown by the
 * presented frame of that commit. The generator appends; the window's
 * side matches, draws and presents. The generator may run on a thread of
 * its own (fairway-follow): what it appended is seen once published.
 */

struct fw_motion {
	int32_t x, y; /* surface-local */
	uint64_t gen_ns;
};

struct fw_motion_log {
	/* The generator's: motions[0, count) are complete. */
	struct fw_motion *motions;
	size_t cap;
	atomic_size_t count;
	/* The window's. */
	struct fw_motion_state *states;
	size_t next_match; /* first motion that may still arrive */
	size_t next_draw; /* first delivered motion not yet drawn */
	size_t next_echo; /* first drawn motion not yet presented */
	/* In ms: generation to delivery, generation and the motion's own
	 * timestamp to presentation. */
	struct fw_stats receipt, echo, event;
};

/* Room for cap motions; -1 when out of memory. */
int fw_motion_log_init(struct fw_motion_log *log, size_t cap);
void fw_motion_log_finish(struct fw_motion_log *log);

/* The generator: the next motion to fill, NULL when the log is full;
 * publish makes it visible to the window. */
struct fw_motion *fw_motion_log_next(struct fw_motion_log *log);
void fw_motion_log_publish(struct fw_motion_log *log);
size_t fw_motion_log_count(struct fw_motion_log *log);

/*
 * A position delivered at now, with the event's timestamp event_ns:
 * matched against the next motions generated (the compositor may drop
 * some, but positions repeat only after a whole lap); those before the one
 * it matches will not come any more.
 */
void fw_motion_log_match(struct fw_motion_log *log, int32_t x, int32_t y,
		uint64_t now, uint64_t event_ns);
/* Undriven: a delivered motion is its own record, generated at event_ns. */
void fw_motion_log_add_delivered(struct fw_motion_log *log, int32_t x,
		int32_t y, uint64_t now, uint64_t event_ns);
/* A commit numbered seq drew every motion delivered so far. */
void fw_motion_log_drawn(struct fw_motion_log *log, uint64_t seq);
/* The commit numbered seq, and those before it, were presented then. */
void fw_motion_log_presented(
		struct fw_motion_log *log, uint64_t seq, uint64_t present_ns);
/* Motions generated from the from-th on and never delivered. */
uint64_t fw_motion_log_missed(struct fw_motion_log *log, size_t from);
/* Some delivered motion is not yet on screen, or some generated one not
 * yet delivered. */
bool fw_motion_log_waiting(struct fw_motion_log *log);

#endif
