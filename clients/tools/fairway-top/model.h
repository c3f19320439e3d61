#ifndef FAIRWAY_TOP_MODEL_H
#define FAIRWAY_TOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-client.h>

/*
 * fairway-top's side of fairway-scheduler-unstable-v1: every client the
 * manager announces, its last two stats snapshots, and the rates between
 * them, worked out once per round (the manager's round_done).
 */

/* The stat values read (the protocol's enum stat; later ones ignored). */
#define TOP_STAT_COUNT 32

enum top_sort {
	TOP_SORT_DISPATCH,
	TOP_SORT_RATE,
	TOP_SORT_QUEUE,
	TOP_SORT_CLASS,
	TOP_SORT_PRIORITY,
	TOP_SORT_COUNT,
};

struct top_client {
	struct fairway_scheduler_client_v1 *handle;
	uint32_t id;
	pid_t pid;
	uint32_t uid;
	char comm[16];
	char app_ids[256]; /* comma-separated, as shown */
	char pending_app_ids[256]; /* those since the last info */
	uint32_t flags;
	int64_t cur[TOP_STAT_COUNT], prev[TOP_STAT_COUNT];
	bool has_cur, has_prev;
	/* Between the last two snapshots. */
	bool has_rates;
	double requests_per_s, events_per_s;
	double dispatch_ms_per_s; /* compositor time spent on it, per second */
	double dispatch_share; /* of all clients' dispatch time, 0 to 1 */
	struct wl_list link; /* top_model.clients, oldest first */
};

struct top_model {
	const char *prog;
	struct wl_display *display;
	struct wl_registry *registry;
	struct fairway_scheduler_manager_v1 *manager;
	struct wl_list clients; /* top_client.link */
	uint32_t period_ms; /* what fairway put in force */
	bool announced; /* the manager's done came */
	unsigned rounds; /* round_done events so far */
};

/*
 * Connects, binds the manager and waits for every client; subscribes to
 * all at period_ms. Prints why and returns false on failure.
 */
bool top_model_init(
		struct top_model *model, const char *prog, uint32_t period_ms);
void top_model_finish(struct top_model *model);

/*
 * Waits until fairway sends something or extra_fd (-1: none) is readable,
 * and dispatches what came; *extra_ready says whether extra_fd is. False
 * on a lost connection or protocol error, printed.
 */
bool top_model_dispatch(
		struct top_model *model, int extra_fd, bool *extra_ready);

/* Every client, sorted: an array the caller frees; *count its length. */
struct top_client **top_model_sorted(
		struct top_model *model, enum top_sort sort, size_t *count);

/* Sets a client's base priority (clamped to [-20, 20] first). */
void top_client_set_priority(struct top_client *client, int value);
/* Sets the base priority of every client of pid; how many it found. */
int top_model_set_pid_priority(struct top_model *model, pid_t pid, int value);

const char *top_class_name(int64_t class); /* "-" where not rated */
const char *top_sort_name(enum top_sort sort);

#endif
