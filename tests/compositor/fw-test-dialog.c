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

#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-dialog-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct window {
	const char *name;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wp_viewport *viewport;
	bool configured, pending_activated, activated;
};

struct app {
	struct wl_compositor *compositor;
	struct xdg_wm_base *wm_base;
	struct wp_viewporter *viewporter;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct xdg_wm_dialog_v1 *dialogs;
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct app *app = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		app->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		app->wm_base =
				wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
	} else if (strcmp(interface, wp_viewporter_interface.name) == 0) {
		app->viewporter =
				wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
	} else if (strcmp(interface,
					   wp_single_pixel_buffer_manager_v1_interface.name) == 0) {
		app->pixels = wl_registry_bind(registry, name,
				&wp_single_pixel_buffer_manager_v1_interface, 1);
	} else if (strcmp(interface, xdg_wm_dialog_v1_interface.name) == 0) {
		app->dialogs = wl_registry_bind(
				registry, name, &xdg_wm_dialog_v1_interface, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	// The globals used here stay for the compositor's life.
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

static void handle_ping(
		void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
		.ping = handle_ping,
};

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

static void handle_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct window *window = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	if (window->pending_activated && !window->activated) {
		printf("activated %s\n", window->name);
	}
	window->activated = window->pending_activated;
	window->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
		.configure = handle_configure,
};

static int dispatch_until(struct wl_display *display, bool *flag) {
	while (!*flag) {
		if (wl_display_dispatch(display) < 0) {
			return -1;
		}
	}
	return 0;
}

static int window_show(struct app *app, struct wl_display *display,
		struct window *window, struct window *parent, uint32_t r, uint32_t g,
		int width, int height) {
	window->surface = wl_compositor_create_surface(app->compositor);
	window->viewport =
			wp_viewporter_get_viewport(app->viewporter, window->surface);
	window->xdg_surface =
			xdg_wm_base_get_xdg_surface(app->wm_base, window->surface);
	xdg_surface_add_listener(
			window->xdg_surface, &xdg_surface_listener, window);
	window->toplevel = xdg_surface_get_toplevel(window->xdg_surface);
	xdg_toplevel_add_listener(window->toplevel, &toplevel_listener, window);
	xdg_toplevel_set_title(window->toplevel, window->name);
	if (parent != NULL) {
		xdg_toplevel_set_parent(window->toplevel, parent->toplevel);
		struct xdg_dialog_v1 *dialog =
				xdg_wm_dialog_v1_get_xdg_dialog(app->dialogs, window->toplevel);
		xdg_dialog_v1_set_modal(dialog);
	}
	wl_surface_commit(window->surface);
	if (dispatch_until(display, &window->configured) < 0) {
		return -1;
	}
	struct wl_buffer *buffer =
			wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
					app->pixels, r, g, 0, UINT32_MAX);
	wl_surface_attach(window->surface, buffer, 0, 0);
	wp_viewport_set_destination(window->viewport, width, height);
	wl_surface_damage_buffer(window->surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(window->surface);
	wl_buffer_destroy(buffer);
	return wl_display_roundtrip(display) < 0 ? -1 : 0;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct app app = {0};
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-test-dialog: cannot connect\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &app);
	if (wl_display_roundtrip(display) < 0) {
		return 1;
	}
	if (app.compositor == NULL || app.wm_base == NULL ||
			app.viewporter == NULL || app.pixels == NULL ||
			app.dialogs == NULL) {
		fprintf(stderr, "fw-test-dialog: a global is missing\n");
		return 1;
	}
	xdg_wm_base_add_listener(app.wm_base, &wm_base_listener, &app);
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
