#ifndef FAIRWAY_COMPOSITOR_SCHED_SCHEDULER_PROTOCOL_H
#define FAIRWAY_COMPOSITOR_SCHED_SCHEDULER_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>

struct fw_sched_config;
struct fw_server;
struct fw_scheduler_protocol;
struct wl_client;

/*
 * Writes the app_ids of client's mapped windows (the X windows' classes
 * for Xwayland's client) into ids, each ended by a NUL, each once, at
 * most max of them and size bytes in all; returns the bytes written.
 */
typedef size_t (*fw_scheduler_protocol_app_ids_func)(struct fw_server *server,
		struct wl_client *client, char *ids, size_t size, int max);

/*
 * fairway-scheduler-unstable-v1 (protocol/): the gate's clients, their
 * statistics (scheduler/gate/client_stats.h) and ratings, and their base
 * priority, for fairway-top and the like; config says who may manage
 * (fw_scheduler_protocol_may_manage), app_ids names their windows.
 * Call once the gate, XWayland and the ratings are up. NULL with --scheduler
 * off (nothing to show), or on failure, logged.
 */
struct fw_scheduler_protocol *fw_scheduler_protocol_create(
		struct fw_server *server, const struct fw_sched_config *config,
		fw_scheduler_protocol_app_ids_func app_ids);
/* Once every client has gone. Accepts NULL. */
void fw_scheduler_protocol_destroy(struct fw_scheduler_protocol *protocol);

/*
 * Whether client may have fairway_scheduler_manager_v1, which shows every
 * client and sets their priorities: its executable must be one of the
 * configuration's "scheduler manager" (fairway-top's installed path by
 * default), run as fairway's uid or root, and in no sandbox. False with
 * no protocol (NULL).
 */
bool fw_scheduler_protocol_may_manage(
		struct fw_scheduler_protocol *protocol, struct wl_client *client);

#endif
