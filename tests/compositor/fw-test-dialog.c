/*
 * A window (red, 400x300) and its modal dialog (green, 200x100), made
 * with xdg_toplevel.set_parent and xdg-dialog-v1's set_modal, for the
 * tests. Prints "mapped" once both are shown, then "activated parent" or
 * "activated dialog" each time the compositor activates one of them, and
 * "synced" after a roundtrip for each line on stdin; stays until stdin
 * closes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>
#include <wayland-client.h>

#include "fw-test-window.h"
#include "xdg-dialog-v1-client-protocol.h"

struct window {
	struct fw_test_window base;
	const char *name;
	struct wp_viewport *viewport;
	bool pending_activated, activated;
};

struct app {
	struct fw_test_globals globals;
	struct xdg_wm_dialog_v1 *dialogs;
};

static void bind_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version) {
	struct app *app = data;
	if (strcmp(interface, xdg_wm_dialog_v1_interface.name) == 0) {
		app->dialogs = wl_registry_bind(
				registry, name, &xdg_wm_dialog_v1_interface, 1);
	}
}

static void handle_toplevel_configure(void *data, struct xdg_toplevel *toplevel,
		int32_t width, int32_t height, struct wl_array *states) {
	struct window *window = data;
	window->pending_activated = false;
	uint32_t *state;
	wl_array_for_each(state, states) {
		if (*state == XDG_TOPLEVEL_STATE_ACTIVATED) {
			window->pending_activated = true;
		}
	}
}

static void handle_close(void *data, struct xdg_toplevel *toplevel) {
}

static const struct xdg_toplevel_listener toplevel_listener = {
		.configure = handle_toplevel_configure,
		.close = handle_close,
};

static void handle_configure(struct fw_test_window *base) {
	struct window *window = wl_container_of(base, window, base);
	if (window->pending_activated && !window->activated) {
		printf("activated %s\n", window->name);
	}
	window->activated = window->pending_activated;
}

static int window_show(struct app *app, struct wl_display *display,
		struct window *window, struct window *parent, uint32_t r, uint32_t g,
		int width, int height) {
	window->base.configure = handle_configure;
	fw_test_window_create(&window->base, &app->globals, window->name);
	struct wl_surface *surface = window->base.surface;
	struct xdg_toplevel *toplevel = window->base.toplevel;
	window->viewport =
			wp_viewporter_get_viewport(app->globals.viewporter, surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, window);
	if (parent != NULL) {
		xdg_toplevel_set_parent(toplevel, parent->base.toplevel);
		struct xdg_dialog_v1 *dialog =
				xdg_wm_dialog_v1_get_xdg_dialog(app->dialogs, toplevel);
		xdg_dialog_v1_set_modal(dialog);
	}
	if (fw_test_window_map(&window->base, display) < 0) {
		return -1;
	}
	struct wl_buffer *buffer =
			wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
					app->globals.pixels, r, g, 0, UINT32_MAX);
	wl_surface_attach(surface, buffer, 0, 0);
	wp_viewport_set_destination(window->viewport, width, height);
	wl_surface_damage_buffer(surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(surface);
	wl_buffer_destroy(buffer);
	return wl_display_roundtrip(display) < 0 ? -1 : 0;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct app app = {0};
	app.globals.bind = bind_global;
	app.globals.data = &app;
	if (!fw_test_window_connect(&app.globals, "fw-test-dialog")) {
		return 1;
	}
	struct wl_display *display = app.globals.display;
	if (app.globals.compositor == NULL || app.globals.wm_base == NULL ||
			app.globals.viewporter == NULL || app.globals.pixels == NULL ||
			app.dialogs == NULL) {
		fprintf(stderr, "fw-test-dialog: a global is missing\n");
		return 1;
	}
	struct window parent = {.name = "parent"}, dialog = {.name = "dialog"};
	if (window_show(&app, display, &parent, NULL, UINT32_MAX, 0, 400, 300) <
					0 ||
			window_show(&app, display, &dialog, &parent, 0, UINT32_MAX, 200,
					100) < 0) {
		return 1;
	}
	printf("mapped\n");
	int fd = wl_display_get_fd(display);
	for (;;) {
		fd_set fds;
		FD_ZERO(&fds);
		FD_SET(fd, &fds);
		FD_SET(STDIN_FILENO, &fds);
		wl_display_flush(display);
		if (select(fd + 1, &fds, NULL, NULL, NULL) < 0) {
			if (errno == EINTR) {
				continue;
			}
			break;
		}
		if (FD_ISSET(STDIN_FILENO, &fds)) {
			char byte;
			if (read(STDIN_FILENO, &byte, 1) <= 0) {
				break;
			}
			if (byte == '\n') {
				if (wl_display_roundtrip(display) < 0) {
					return 1;
				}
				printf("synced\n");
			}
		}
		if (FD_ISSET(fd, &fds) && wl_display_dispatch(display) < 0) {
			return 1;
		}
	}
	wl_display_disconnect(display);
	return 0;
}
