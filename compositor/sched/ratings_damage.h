#ifndef FAIRWAY_COMPOSITOR_SCHED_RATINGS_DAMAGE_H
#define FAIRWAY_COMPOSITOR_SCHED_RATINGS_DAMAGE_H

struct fw_server;
struct wlr_output;
struct wlr_surface;
struct fw_damage_tracker;

/*
 * Presented damage for the output ratings. wlroots' scene reports no
 * damage per client, so each surface's commit damage is kept until an
 * output presents a frame. Then, walking the scene from the top, the part
 * of it that frame shows (on that output, not covered by surfaces above)
 * is reported as a share of the surface, once: what an output showed is
 * dropped, and so is damage nobody can see (off every output, or on a
 * surface not in the scene).
 */

/* surface's damage shown by the frame, as a share of its size. */
typedef void (*fw_damage_shown_func)(
		struct wlr_surface *surface, double fraction, void *data);
/* The frame's damage has all been reported. */
typedef void (*fw_damage_frame_func)(void *data);
/* surface committed a frame: a commit with damage, shown or not. */
typedef void (*fw_damage_commit_func)(struct wlr_surface *surface, void *data);

struct fw_damage_callbacks {
	fw_damage_shown_func shown;
	fw_damage_frame_func frame_done;
	fw_damage_commit_func committed;
};

struct fw_damage_tracker *fw_ratings_damage_create(struct fw_server *server,
		const struct fw_damage_callbacks *callbacks, void *data);
void fw_ratings_damage_destroy(struct fw_damage_tracker *tracker);
/* Follows an output that was there before the tracker; it follows new
 * ones itself. */
void fw_ratings_damage_add_output(
		struct fw_damage_tracker *tracker, struct wlr_output *output);

#endif
