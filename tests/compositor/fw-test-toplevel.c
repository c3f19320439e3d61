/*
 * A task bar's request, for the tests: through wlr-foreign-toplevel-
 * management, asks the compositor to activate the window with a given
 * title, as clicking its button in a task bar would.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"

struct handle {
	struct wl_list link; // tool.handles
	struct zwlr_foreign_toplevel_handle_v1 *handle;
	char *title;
};

struct tool {
	struct wl_seat *seat;
	struct zwlr_foreign_toplevel_manager_v1 *manager;
	struct wl_list handles; // handle.link
};

static void handle_title(void *data,
		struct zwlr_foreign_toplevel_handle_v1 *toplevel, const char *title) {
	struct handle *handle = data;
	free(handle->title);
	handle->title = strdup(title);
}

static void handle_app_id(void *data,
		struct zwlr_foreign_toplevel_handle_v1 *toplevel, const char *app_id) {
	// Windows are found by title.
}

static void handle_output_enter(void *data,
		struct zwlr_foreign_toplevel_handle_v1 *toplevel,
		struct wl_output *output) {
	// Where a window is does not matter here.
}

static void handle_output_leave(void *data,
		struct zwlr_foreign_toplevel_handle_v1 *toplevel,
		struct wl_output *output) {
	// Where a window is does not matter here.
}

static void handle_state(void *data,
		struct zwlr_foreign_toplevel_handle_v1 *toplevel,
		struct wl_array *state) {
	// The test reads focus from the window itself.
}

static void handle_done(
		void *data, struct zwlr_foreign_toplevel_handle_v1 *toplevel) {
	// Titles are read once everything has arrived.
}

static void handle_closed(
		void *data, struct zwlr_foreign_toplevel_handle_v1 *toplevel) {
	struct handle *handle = data;
	free(handle->title);
	handle->title = NULL;
}

static void handle_parent(void *data,
		struct zwlr_foreign_toplevel_handle_v1 *toplevel,
		struct zwlr_foreign_toplevel_handle_v1 *parent) {
	// Parents do not matter here.
}

static const struct zwlr_foreign_toplevel_handle_v1_listener handle_listener = {
		.title = handle_title,
		.app_id = handle_app_id,
		.output_enter = handle_output_enter,
		.output_leave = handle_output_leave,
		.state = handle_state,
		.done = handle_done,
		.closed = handle_closed,
		.parent = handle_parent,
};

static void handle_toplevel(void *data,
		struct zwlr_foreign_toplevel_manager_v1 *manager,
		struct zwlr_foreign_toplevel_handle_v1 *toplevel) {
	struct tool *tool = data;
	struct handle *handle = calloc(1, sizeof(*handle));
	if (handle == NULL) {
		zwlr_foreign_toplevel_handle_v1_destroy(toplevel);
		return;
	}
	handle->handle = toplevel;
	zwlr_foreign_toplevel_handle_v1_add_listener(
			toplevel, &handle_listener, handle);
	wl_list_insert(&tool->handles, &handle->link);
}

static void handle_finished(
		void *data, struct zwlr_foreign_toplevel_manager_v1 *manager) {
	// The tool is done long before the compositor stops.
}

static const struct zwlr_foreign_toplevel_manager_v1_listener manager_listener =
		{
				.toplevel = handle_toplevel,
				.finished = handle_finished,
};

static void handle_registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct tool *tool = data;
	if (strcmp(interface, wl_seat_interface.name) == 0 && tool->seat == NULL) {
		tool->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
	} else if (strcmp(interface,
					   zwlr_foreign_toplevel_manager_v1_interface.name) == 0) {
		tool->manager = wl_registry_bind(registry, name,
				&zwlr_foreign_toplevel_manager_v1_interface,
				version < 3 ? version : 3);
		zwlr_foreign_toplevel_manager_v1_add_listener(
				tool->manager, &manager_listener, tool);
	}
}

static void handle_registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	// Nothing this tool binds goes away while it runs.
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_registry_global,
		.global_remove = handle_registry_global_remove,
};

int main(int argc, char *argv[]) {
	if (argc != 3 || strcmp(argv[1], "activate") != 0) {
		fputs("usage: fw-test-toplevel activate TITLE\n"
			  "Asks, as a task bar would, that the window titled TITLE be\n"
			  "activated; prints activate-requested once the compositor has\n"
			  "handled the request.\n",
				stderr);
		return 2;
	}
	struct tool tool = {0};
	wl_list_init(&tool.handles);
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-test-toplevel: cannot connect to the compositor\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &tool);
	int status = 1;
	// Globals, then the windows, then their titles.
	for (int i = 0; i < 3; i++) {
		if (wl_display_roundtrip(display) < 0) {
			fprintf(stderr, "fw-test-toplevel: lost the compositor\n");
			goto out;
		}
	}
	if (tool.manager == NULL || tool.seat == NULL) {
		fprintf(stderr,
				"fw-test-toplevel: no foreign toplevel manager or "
				"seat\n");
		goto out;
	}
	struct handle *handle, *found = NULL;
	wl_list_for_each(handle, &tool.handles, link) {
		if (handle->title != NULL && strcmp(handle->title, argv[2]) == 0) {
			found = handle;
		}
	}
	if (found == NULL) {
		fprintf(stderr, "fw-test-toplevel: no window titled '%s'\n", argv[2]);
		goto out;
	}
	zwlr_foreign_toplevel_handle_v1_activate(found->handle, tool.seat);
	if (wl_display_roundtrip(display) < 0) {
		fprintf(stderr, "fw-test-toplevel: lost the compositor\n");
		goto out;
	}
	printf("activate-requested\n");
	status = 0;
out:;
	struct handle *tmp;
	wl_list_for_each_safe(handle, tmp, &tool.handles, link) {
		zwlr_foreign_toplevel_handle_v1_destroy(handle->handle);
		free(handle->title);
		free(handle);
	}
	if (tool.manager != NULL) {
		zwlr_foreign_toplevel_manager_v1_destroy(tool.manager);
	}
	if (tool.seat != NULL) {
		wl_seat_destroy(tool.seat);
	}
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return status;
}
