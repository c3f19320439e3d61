#ifndef FAIRWAY_COMPOSITOR_OUTPUT_FRAME_DONES_H
#define FAIRWAY_COMPOSITOR_OUTPUT_FRAME_DONES_H

#include <stdint.h>
#include <wayland-server-core.h>

struct wlr_surface;

/*
 * Frame done events decided during a turn of the event loop, sent at its
 * end, after the turn's idle work: wlroots sends configures from idle
 * callbacks, and what a commit set off for the client's other surfaces (a
 * panel's exclusive zone shrinking its maximized window) must reach it
 * before the frame done it waits on, as it would after a paint.
 */
struct fw_frame_dones;

/* A surface's frame callbacks taken and not yet sent. */
struct fw_frame_dones_surface {
	struct wl_list callbacks; /* wl_resource links */
	uint32_t msec;
	struct wl_client *client;
	struct wl_list link; /* fw_frame_dones.due; empty: none */
};

struct fw_frame_dones *fw_frame_dones_create(struct wl_event_loop *loop);
/* Every surface must be finished. Accepts NULL. */
void fw_frame_dones_destroy(struct fw_frame_dones *dones);

void fw_frame_dones_surface_init(struct fw_frame_dones_surface *pending);
/* For a dying surface: its callbacks are destroyed unsent, as wlroots
 * does with a dying surface's own. */
void fw_frame_dones_surface_finish(struct fw_frame_dones_surface *pending);

/* Answers the surface's frame callbacks committed so far, with the time
 * now_ns; they go out at the end of this turn. */
void fw_frame_dones_take(struct fw_frame_dones *dones,
		struct fw_frame_dones_surface *pending, struct wlr_surface *surface,
		int64_t now_ns);

#endif
