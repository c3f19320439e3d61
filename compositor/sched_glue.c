#include "compositor/sched_glue.h"
#include "compositor/server.h"
#include "scheduler/gate.h"
#include <wayland-server-core.h>
#include <wlr/types/wlr_surface.h>

void fw_sched_note_input(struct fw_server *server, struct wl_client *client) {
	if (server->gate != NULL && client != NULL) {
		gate_note_input(server->gate, client);
	}
}

void fw_sched_note_surface(
		struct fw_server *server, struct wlr_surface *surface) {
	if (surface == NULL || surface->resource == NULL) {
		return;
	}
	fw_sched_note_input(server, wl_resource_get_client(surface->resource));
}
