#ifndef FAIRWAY_COMPOSITOR_SCHED_GLUE_H
#define FAIRWAY_COMPOSITOR_SCHED_GLUE_H

struct fw_server;
struct wl_client;
struct wlr_surface;

/* Called whenever client is delivered input or a window-management event. */
void fw_sched_note_input(struct fw_server *server, struct wl_client *client);
/* Same, for the client that owns surface (may be NULL). */
void fw_sched_note_surface(
		struct fw_server *server, struct wlr_surface *surface);

#endif
