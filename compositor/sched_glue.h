#ifndef FAIRWAY_COMPOSITOR_SCHED_GLUE_H
#define FAIRWAY_COMPOSITOR_SCHED_GLUE_H

struct fw_server;
struct wl_client;
struct wlr_surface;

/* Called whenever client is delivered input: key, button, motion, axis,
 * touch. It boosts the client in the gate and counts for its input rating. */
void fw_sched_note_input(struct fw_server *server, struct wl_client *client);
/* Same, for the client that owns surface (may be NULL). */
void fw_sched_note_surface(
		struct fw_server *server, struct wlr_surface *surface);
/*
 * A window-management event went to the surface's client: configure,
 * activation, focus, close. Like Xorg's Expose and ConfigureNotify it boosts
 * the client in the gate, but it is no user input for the ratings.
 */
void fw_sched_note_window_event(
		struct fw_server *server, struct wlr_surface *surface);

#endif
