#ifndef FAIRWAY_COMPOSITOR_OUTPUT_OUTPUT_H
#define FAIRWAY_COMPOSITOR_OUTPUT_OUTPUT_H

#include <stdbool.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>

struct fw_server;
struct wlr_output;
struct wlr_surface;
struct fw_frame_output;
struct fw_render_output;

struct fw_output {
	struct wl_list link; /* fw_server.outputs */
	struct fw_server *server;
	struct wlr_output *wlr_output;
	/* What of the scene it shows; NULL while it is not in the layout. */
	struct wlr_scene_output *scene_output;
	/* Area left for windows once layer surfaces took their exclusive zones. */
	struct wlr_box usable_area;
	/* Its box in the layout when windows were last fitted to it. */
	struct wlr_box fitted_box;
	struct wl_list layer_surfaces; /* fw_layer_surface.link */
	struct wl_list pending_feedback; /* presentation.c */
	/* When it paints and sends frame done; NULL: --frame-schedule off. */
	struct fw_frame_output *frames;
	/* How it paints (render.h). */
	struct fw_render_output *render;
	/* The commit the frame being painted will be: its feedback's. */
	uint32_t paint_seq;

	/* The last frame presented, for when the next can be (presentation.c):
	 * when, the refresh it reported (0: unknown), at a vblank. */
	int64_t present_ns;
	int64_t present_refresh_ns;
	bool present_vsync;
	/* When the last frame was committed, and its commit_seq: headless
	 * presents it then. */
	int64_t commit_ns;
	uint32_t commit_ns_seq;

	struct wl_listener present;
	struct wl_listener present_commit;

	struct wl_listener frame;
	struct wl_listener destroy;
};

/*
 * Follows the backend's outputs and the layout, and offers the output
 * management and power globals.
 */
void fw_output_init(struct fw_server *server);
void fw_output_finish(struct fw_server *server);
struct fw_output *fw_output_at(struct fw_server *server, double lx, double ly);
/* The output under the cursor, else the first one; NULL without outputs. */
struct fw_output *fw_output_focused(struct fw_server *server);
void fw_output_box(struct fw_output *output, struct wlr_box *box);
/*
 * Puts the output in the layout at x, y, or anywhere where automatic, with
 * the scene output that shows the scene there. False on failure, the
 * output then out of the layout.
 */
bool fw_output_layout_add(
		struct fw_output *output, bool automatic, int x, int y);
/* Takes the output out of the layout, and its scene output with it. */
void fw_output_layout_remove(struct fw_output *output);
/* What the output leaves for windows (less exclusive zones), else all of
 * it. */
void fw_output_usable_area(struct fw_output *output, struct wlr_box *box);
/* Calls iterator on each surface the output shows some of. */
void fw_output_for_each_surface(struct fw_output *output,
		void (*iterator)(struct wlr_surface *surface, void *data), void *data);
void fw_output_update_manager(struct fw_server *server);
/*
 * Paints the output's damage and commits it, taking the presentation
 * feedback of the surfaces it shows; then, now or once the paint worker
 * painted it, the frame schedule (or, without one, every surface) learns
 * the frame was painted. Not while fw_output_painting. unchanged: commit
 * a frame with nothing damaged too when wlroots asks for one
 * (fw_render_options).
 */
void fw_output_paint(struct fw_output *output, bool unchanged);
/* Something on the output changed since its last commit. */
bool fw_output_damaged(struct fw_output *output);
/* The paint worker paints a frame of this output. */
bool fw_output_painting(struct fw_output *output);
/* The frame being painted must never be shown (the session locked). */
void fw_output_discard_paint(struct fw_output *output);

#endif
