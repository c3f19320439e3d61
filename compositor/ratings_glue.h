#ifndef FAIRWAY_COMPOSITOR_RATINGS_GLUE_H
#define FAIRWAY_COMPOSITOR_RATINGS_GLUE_H

#include <stdbool.h>

struct fw_server;
struct wl_client;
struct wlr_surface;

/*
 * Rates every client's presented output and input (scheduler/ratings.h)
 * and hands the kernel hints (scheduler/hints.h) once a second. Replays
 * what a crashed fairway left in the journal first. Call once XWayland is
 * set up. The pieces: ratings_internal.h.
 */
bool fw_ratings_create(struct fw_server *server);
/* Restores every hinted thread. */
void fw_ratings_destroy(struct fw_server *server);
/* The hint map changed (a configuration reload): hints follow it now. */
void fw_ratings_set_hint_targets(struct fw_server *server);
/* Input went to client, to surface where known (both may be NULL). */
void fw_ratings_note_input(struct fw_server *server, struct wl_client *client,
		struct wlr_surface *surface);

#endif
