#include "compositor/sched_glue.h"
#include "compositor/frame_schedule.h"
#include "compositor/ratings_glue.h"
#include "compositor/server.h"
#include "scheduler/gate.h"
#include <wayland-server-core.h>
#include <wlr/types/wlr_surface.h>

static void note_gate(struct fw_server *server, struct wl_client *client) {
	if (server->gate != NULL && client != NULL) {
		gate_note_input(server->gate, client);
	}
}

void fw_sched_note_input(struct fw_server *server, struct wl_client *client) {
	note_gate(server, client);
	fw_frame_schedule_note_input(server->frame_schedule, client);
	fw_ratings_note_input(server, client, NULL);
}

void fw_sched_note_surface(
		struct fw_server *server, struct wlr_surface *surface) {
	if (surface == NULL || surface->resource == NULL) {
		return;
	}
	struct wl_client *client = wl_resource_get_client(surface->resource);
	note_gate(server, client);
	fw_frame_schedule_note_input(server->frame_schedule, client);
	/* The surface says which X client, where the wl_client is Xwayland. */
	fw_ratings_note_input(server, client, surface);
}

void fw_sched_note_window_event(
		struct fw_server *server, struct wlr_surface *surface) {
	if (surface != NULL && surface->resource != NULL) {
		note_gate(server, wl_resource_get_client(surface->resource));
	}
}
