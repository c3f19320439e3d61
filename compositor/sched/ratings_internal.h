#ifndef FAIRWAY_COMPOSITOR_SCHED_RATINGS_INTERNAL_H
#define FAIRWAY_COMPOSITOR_SCHED_RATINGS_INTERNAL_H

/*
 * The ratings' own structures, shared by the files that make them up:
 *
 * - ratings.c: the whole, its timer and what input and frames add;
 * - ratings_process.c: the registry of rated processes and their hints;
 * - ratings_owner.c: which process a client, an X window or Xwayland is;
 * - ratings_x11.c (its own header): the frames X clients draw.
 */

#include "scheduler/hints/hints.h"
#include "scheduler/ratings/ratings_client.h"
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-server-core.h>

struct fw_client;
struct fw_client_list;
struct fw_server;
struct wlr_surface;
struct wlr_xwayland_surface;

/* One client process: Wayland clients of one pid, or an X client. */
struct fw_rated {
	pid_t pid;
	int refs;
	struct ratings_client rc;
	/*
	 * Its hints, made at its first class change, off the input path:
	 * NULL before, without hints, or once gone. Until then, the pidfd
	 * and uid it will be checked against.
	 */
	struct hints_app *app;
	bool hinted; /* proc made, or tried */
	int pidfd;
	uid_t uid;
	bool never_idle; /* Xwayland: hints_app_never_idle */
	bool due; /* its class waits for the next idle moment */
	struct fw_rated *xwayland; /* an X client's Xwayland, referenced */
	double frame; /* damage shown by the frame being counted */
	int frame_surfaces; /* its surfaces that frame showed */
	/* That frame showed a surface declaring video or a game. */
	bool frame_motion;
	enum ratings_class class;
	struct wl_list link; /* fw_ratings.rated */
};

struct fw_ratings {
	struct fw_server *server;
	struct fw_client_list *clients;
	struct ratings_params params;
	struct hints *hints; /* NULL: no hints (--hints off, or no journal) */
	struct wl_list rated; /* fw_rated.link */
	struct wl_list xsurfaces; /* fw_rated_xsurface.link */
	struct fw_damage_tracker *damage;
	struct fw_ratings_x11 *xdamage; /* NULL: X drawing is not counted */
	struct wl_event_source *timer;
	/* Runs the class changes input asked for, after the input went out. */
	struct wl_event_source *hints_due;
	struct wl_listener new_xsurface;
	struct wl_listener client_destroy;
};

/* --- ratings_process.c --------------------------------------------------- */

/*
 * The rated process pid, referenced, made on first use; pidfd (taken, even
 * on failure; -1 if none) and uid are what its hints will check.
 */
struct fw_rated *fw_ratings_process_get(
		struct fw_ratings *ratings, pid_t pid, int pidfd, uid_t uid);
/* Drops a reference, and Xwayland's that an X client held. Accepts NULL. */
void fw_ratings_process_unref(struct fw_rated *rated);
/* Frees it whatever its references: the ratings are going. */
void fw_ratings_process_free(struct fw_rated *rated);
/*
 * Hands its class to the kernel: the /proc walk, the journal's fsync and
 * the sched_setattr calls, never on the input path.
 */
void fw_ratings_process_set_class(
		struct fw_ratings *ratings, struct fw_rated *rated, int64_t now);

/* --- ratings_owner.c ----------------------------------------------------- */

/*
 * The client's record (client.h), with its rated process set up on first
 * use; NULL while its process is not known yet (Xwayland before its first
 * request): asked again later.
 */
struct fw_client *fw_ratings_owner_client(
		struct fw_ratings *ratings, struct wl_client *client);
/* The process whose output the surface shows, X windows' included. */
struct fw_rated *fw_ratings_owner_surface(
		struct fw_ratings *ratings, struct wlr_surface *surface);
/* Starts following clients and X windows, once XWayland is set up. */
void fw_ratings_owner_init(struct fw_ratings *ratings);
/* Forgets every client and X window. */
void fw_ratings_owner_finish(struct fw_ratings *ratings);

#endif
