#ifndef FAIRWAY_COMPOSITOR_SCHED_RATINGS_H
#define FAIRWAY_COMPOSITOR_SCHED_RATINGS_H

#include "scheduler/hints/hints.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fw_ratings;
struct fw_server;
struct wlr_output;
struct wl_client;
struct wlr_surface;

/*
 * Rates every client's presented output and input
 * (scheduler/ratings/ratings_client.h) and hands the kernel hints
 * (scheduler/hints/hints.h) once a second. Replays what a crashed fairway left
 * in the journal first. Call once XWayland is set up. The pieces:
 * ratings_internal.h.
 */
bool fw_ratings_create(
		struct fw_server *server, const struct hints_config *hints);
/* Restores every hinted thread. */
void fw_ratings_destroy(struct fw_server *server);
/* The hint map changed (a configuration reload): hints follow it now. */
void fw_ratings_set_hint_targets(
		struct fw_ratings *ratings, const struct hints_target *targets);
/*
 * An output that was there before the ratings: its frames count too.
 * Those that come later are followed without this.
 */
void fw_ratings_add_output(
		struct fw_ratings *ratings, struct wlr_output *output);
/*
 * Input went to client, to surface where known (both may be NULL): for
 * Xwayland's client, the surface says which X client. Accepts NULL.
 */
void fw_ratings_note_input(struct fw_ratings *ratings, struct wl_client *client,
		struct wlr_surface *surface);

/* What the ratings know of a client's process, for a live view of them. */
struct fw_client_rating {
	int class; /* enum ratings_class; -1: not rated */
	double output_rate; /* frames per second over the window */
	int64_t input_age_ns; /* since its last input; -1: none in memory */
	double busy_share; /* of wall time served, 0 to 1 */
	int hint_class; /* the class its threads' hints are; -1: none */
	/* Its application (hints.h); processes -1 where it has no hints. */
	struct hints_app_summary app;
};
/*
 * The rating of client's process (Xwayland's takes its X clients'
 * strongest class) at now. Fills in -1s where it is not rated: fairway
 * itself, not known yet, or no ratings.
 */
void fw_ratings_read_client(struct fw_server *server, struct wl_client *client,
		int64_t now, struct fw_client_rating *rating);
/*
 * The CPU time fairway's clients have used, in clock ticks: each rated
 * process (X clients included), with the processes its hints count as
 * its application's. 0 without ratings.
 */
uint64_t fw_ratings_cpu_ticks(struct fw_server *server);

/*
 * For --stats: the client's class as a field (text starting with a
 * comma, or nothing), and lines of the ratings' own: one per rated
 * process (X clients included) and one for the hints (the attributes the
 * kernel refused). Return what snprintf returns.
 */
struct capped_file;
int fw_ratings_client_json(struct fw_server *server, struct wl_client *client,
		char *buf, size_t size);
void fw_ratings_write_stats(
		struct fw_server *server, struct capped_file *out, double t);

#endif
