/*
 * What is under a pointer that stands still can change without a window
 * mapping or moving: a surface grows or shrinks under it, a subsurface
 * moves or is restacked, an input region changes. Each commit that can do
 * that asks for the pointer's focus to be picked again, once per turn of
 * the loop however many commits asked: right after the batch of requests
 * that made the change, so that the enter, leave or motion it causes goes
 * out with that batch's answers.
 */
#include "compositor/input/cursor_scene.h"
#include "compositor/input/cursor.h"
#include "compositor/input/grab.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <time.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_seat.h>

struct fw_watched_surface {
	struct fw_server *server;
	struct wlr_surface *surface;
	struct wl_listener commit;
	struct wl_listener destroy;
};

void fw_cursor_scene_changed(struct fw_server *server) {
	/*
	 * Until a device has moved it the pointer points nowhere a user
	 * chose; during a move or resize the grab decides. It is no input
	 * either: the client that gets the pointer is not boosted for it.
	 */
	if (!server->cursor_placed || server->seat == NULL ||
			fw_grab_active(server)) {
		return;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (fw_cursor_update_focus(server,
				(uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000))) {
		/* No device frame follows: these events are a frame of their
		 * own. */
		wlr_seat_pointer_notify_frame(server->seat);
	}
}

static void refocus(void *data) {
	struct fw_server *server = data;
	server->refocus_idle = NULL;
	fw_cursor_scene_changed(server);
}

static bool changes_input(struct wlr_surface *surface) {
	const struct wlr_surface_state *state = &surface->current;
	if ((state->committed & WLR_SURFACE_STATE_INPUT_REGION) || state->dx != 0 ||
			state->dy != 0 || state->width != surface->previous.width ||
			state->height != surface->previous.height) {
		return true;
	}
	/* A parent's commit is what moves and restacks its subsurfaces. */
	return !wl_list_empty(&state->subsurfaces_above) ||
			!wl_list_empty(&state->subsurfaces_below);
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_watched_surface *watched =
			wl_container_of(listener, watched, commit);
	struct fw_server *server = watched->server;
	if (server->refocus_idle != NULL || !server->cursor_placed ||
			!changes_input(watched->surface)) {
		return;
	}
	server->refocus_idle =
			wl_event_loop_add_idle(server->loop, refocus, server);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_watched_surface *watched =
			wl_container_of(listener, watched, destroy);
	fw_listener_disconnect(&watched->commit);
	fw_listener_disconnect(&watched->destroy);
	free(watched);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, new_surface);
	struct wlr_surface *surface = data;
	struct fw_watched_surface *watched = calloc(1, sizeof(*watched));
	if (watched == NULL) {
		wl_resource_post_no_memory(surface->resource);
		return;
	}
	watched->server = server;
	watched->surface = surface;
	fw_listener_connect(
			&watched->commit, &surface->events.commit, handle_commit);
	fw_listener_connect(
			&watched->destroy, &surface->events.destroy, handle_destroy);
}

void fw_cursor_scene_init(struct fw_server *server) {
	fw_listener_connect(&server->new_surface,
			&server->compositor->events.new_surface, handle_new_surface);
}

void fw_cursor_scene_finish(struct fw_server *server) {
	fw_listener_disconnect(&server->new_surface);
	if (server->refocus_idle != NULL) {
		wl_event_source_remove(server->refocus_idle);
		server->refocus_idle = NULL;
	}
}
