/*
 * xdg-shell 6, for the tests: window A prints the capabilities its first
 * configure gave ("capabilities N..." of xdg_toplevel.wm_capabilities),
 * then a fullscreen opaque window B covers it, and goes: A prints
 * "suspended 1" and "suspended 0" as its configures say. Exits 0 once A
 * was suspended and resumed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct window {
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wp_viewport *viewport;
	int width, height; /* the configure's, 0: its own */
	int drawn_width, drawn_height;
	bool pending_suspended, suspended, configured;
	bool printed_capabilities; /* or prints none */
	int changes; /* suspended states it was told, after the first */
};

struct app {
	struct wl_compositor *compositor;
	struct xdg_wm_base *wm_base;
	struct wp_viewporter *viewporter;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	uint32_t wm_base_version;
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct app *app = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		app->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		app->wm_base_version = version;
		if (version >= 6) {
			app->wm_base =
					wl_registry_bind(registry, name, &xdg_wm_base_interface, 6);
		}
	} else if (strcmp(interface, wp_viewporter_interface.name) == 0) {
		app->viewporter =
				wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
	} else if (strcmp(interface,
					   wp_single_pixel_buffer_manager_v1_interface.name) == 0) {
		app->pixels = wl_registry_bind(registry, name,
				&wp_single_pixel_buffer_manager_v1_interface, 1);
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
	window->width = width;
	window->height = height;
	window->pending_suspended = false;
	uint32_t *state;
	wl_array_for_each(state, states) {
		if (*state == XDG_TOPLEVEL_STATE_SUSPENDED) {
			window->pending_suspended = true;
		}
	}
}

static void handle_close(void *data, struct xdg_toplevel *toplevel) {
}

static void handle_configure_bounds(void *data, struct xdg_toplevel *toplevel,
		int32_t width, int32_t height) {
}

static void handle_wm_capabilities(void *data, struct xdg_toplevel *toplevel,
		struct wl_array *capabilities) {
	struct window *window = data;
	if (window->printed_capabilities) {
		return;
	}
	window->printed_capabilities = true;
	printf("capabilities");
	uint32_t *capability;
	wl_array_for_each(capability, capabilities) {
		printf(" %u", *capability);
	}
	printf("\n");
}

static const struct xdg_toplevel_listener toplevel_listener = {
		.configure = handle_toplevel_configure,
		.close = handle_close,
		.configure_bounds = handle_configure_bounds,
		.wm_capabilities = handle_wm_capabilities,
};

static void handle_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct window *window = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	if (window->configured && window->pending_suspended != window->suspended) {
		window->changes++;
		printf("suspended %d\n", window->pending_suspended);
	}
	window->suspended = window->pending_suspended;
	window->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
		.configure = handle_configure,
};

static void window_create(struct app *app, struct window *window,
		const char *title, bool fullscreen) {
	window->surface = wl_compositor_create_surface(app->compositor);
	window->viewport =
			wp_viewporter_get_viewport(app->viewporter, window->surface);
	window->xdg_surface =
			xdg_wm_base_get_xdg_surface(app->wm_base, window->surface);
	xdg_surface_add_listener(
			window->xdg_surface, &xdg_surface_listener, window);
	window->toplevel = xdg_surface_get_toplevel(window->xdg_surface);
	xdg_toplevel_add_listener(window->toplevel, &toplevel_listener, window);
	xdg_toplevel_set_title(window->toplevel, title);
	if (fullscreen) {
		xdg_toplevel_set_fullscreen(window->toplevel, NULL);
	}
	wl_surface_commit(window->surface);
}

/* Shows an opaque colour at the configured size, or 300x200. */
static void window_draw(
		struct app *app, struct window *window, uint32_t r, uint32_t g) {
	int width = window->width > 0 ? window->width : 300;
	int height = window->height > 0 ? window->height : 200;
	window->drawn_width = window->width;
	window->drawn_height = window->height;
	struct wl_buffer *buffer =
			wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
					app->pixels, r, g, 0, UINT32_MAX);
	struct wl_region *opaque = wl_compositor_create_region(app->compositor);
	wl_region_add(opaque, 0, 0, width, height);
	wl_surface_set_opaque_region(window->surface, opaque);
	wl_region_destroy(opaque);
	wl_surface_attach(window->surface, buffer, 0, 0);
	wp_viewport_set_destination(window->viewport, width, height);
	wl_surface_damage_buffer(window->surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(window->surface);
	wl_buffer_destroy(buffer);
}

static void window_destroy(struct window *window) {
	xdg_toplevel_destroy(window->toplevel);
	xdg_surface_destroy(window->xdg_surface);
	wp_viewport_destroy(window->viewport);
	wl_surface_destroy(window->surface);
}

static int dispatch_until(struct wl_display *display, bool *flag) {
	while (!*flag) {
		if (wl_display_dispatch(display) < 0) {
			return -1;
		}
	}
	return 0;
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct app app = {0};
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-test-suspend: cannot connect\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &app);
	if (wl_display_roundtrip(display) < 0) {
		return 1;
	}
	if (app.wm_base == NULL) {
		fprintf(stderr, "fw-test-suspend: xdg_wm_base is version %u\n",
				app.wm_base_version);
		return 1;
	}
	if (app.compositor == NULL || app.viewporter == NULL ||
			app.pixels == NULL) {
		fprintf(stderr, "fw-test-suspend: a global is missing\n");
		return 1;
	}
	xdg_wm_base_add_listener(app.wm_base, &wm_base_listener, &app);

	struct window a = {0}, b = {.printed_capabilities = true};
	window_create(&app, &a, "fw-test-suspend A", false);
	if (dispatch_until(display, &a.configured) < 0) {
		return 1;
	}
	window_draw(&app, &a, UINT32_MAX, 0);
	if (wl_display_roundtrip(display) < 0) {
		return 1;
	}
	window_create(&app, &b, "fw-test-suspend B", true);
	if (dispatch_until(display, &b.configured) < 0) {
		return 1;
	}
	window_draw(&app, &b, 0, UINT32_MAX);
	while (a.changes < 1) {
		if (wl_display_dispatch(display) < 0) {
			return 1;
		}
		/* Fullscreen may come in a later configure than the first. */
		if (b.width != b.drawn_width || b.height != b.drawn_height) {
			window_draw(&app, &b, 0, UINT32_MAX);
		}
	}
	window_destroy(&b);
	while (a.changes < 2) {
		if (wl_display_dispatch(display) < 0) {
			return 1;
		}
	}
	window_destroy(&a);
	wl_display_disconnect(display);
	return a.suspended ? 1 : 0;
}
