#ifndef FAIRWAY_COMPOSITOR_SCHED_SCHEDULER_PROTOCOL_H
#define FAIRWAY_COMPOSITOR_SCHED_SCHEDULER_PROTOCOL_H

struct fw_server;
struct fw_scheduler_protocol;

/*
 * fairway-scheduler-unstable-v1 (protocol/): the gate's clients, their
 * statistics (scheduler/client_stats.h) and ratings, and their base
 * priority, for fairway-top and the like. Call once the gate, XWayland
 * and the ratings are up. NULL with --scheduler off (nothing to show), or
 * on failure, logged.
 */
struct fw_scheduler_protocol *fw_scheduler_protocol_create(
		struct fw_server *server);
/* Once every client has gone. Accepts NULL. */
void fw_scheduler_protocol_destroy(struct fw_scheduler_protocol *protocol);

#endif
