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

#include "fw-test-window.h"

struct window {
	struct fw_test_window base;
	struct wp_viewport *viewport;
	int width, height; /* the configure's, 0: its own */
	int drawn_width, drawn_height;
	bool pending_suspended, suspended;
	bool printed_capabilities; /* or prints none */
	int changes; /* suspended states it was told, after the first */
};

struct app {
	struct fw_test_globals globals;
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

static void handle_configure(struct fw_test_window *base) {
	struct window *window = wl_container_of(base, window, base);
	if (window->base.configured &&
			window->pending_suspended != window->suspended) {
		window->changes++;
		printf("suspended %d\n", window->pending_suspended);
	}
	window->suspended = window->pending_suspended;
}

static void window_create(struct app *app, struct window *window,
		const char *title, bool fullscreen) {
	window->base.configure = handle_configure;
	fw_test_window_create(&window->base, &app->globals, title);
	window->viewport = wp_viewporter_get_viewport(
			app->globals.viewporter, window->base.surface);
	xdg_toplevel_add_listener(
			window->base.toplevel, &toplevel_listener, window);
	if (fullscreen) {
		xdg_toplevel_set_fullscreen(window->base.toplevel, NULL);
	}
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
					app->globals.pixels, r, g, 0, UINT32_MAX);
	struct wl_region *opaque =
			wl_compositor_create_region(app->globals.compositor);
	wl_region_add(opaque, 0, 0, width, height);
	struct wl_surface *surface = window->base.surface;
	wl_surface_set_opaque_region(surface, opaque);
	wl_region_destroy(opaque);
	wl_surface_attach(surface, buffer, 0, 0);
	wp_viewport_set_destination(window->viewport, width, height);
	wl_surface_damage_buffer(surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(surface);
	wl_buffer_destroy(buffer);
}

static void window_destroy(struct window *window) {
	wp_viewport_destroy(window->viewport);
	fw_test_window_destroy(&window->base);
}

int main(void) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct app app = {.globals = {.wm_base_wanted = 6}};
	if (!fw_test_window_connect(&app.globals, "fw-test-suspend")) {
		return 1;
	}
	struct wl_display *display = app.globals.display;
	if (app.globals.wm_base == NULL) {
		fprintf(stderr, "fw-test-suspend: xdg_wm_base is version %u\n",
				app.globals.wm_base_offered);
		return 1;
	}
	if (app.globals.compositor == NULL || app.globals.viewporter == NULL ||
			app.globals.pixels == NULL) {
		fprintf(stderr, "fw-test-suspend: a global is missing\n");
		return 1;
	}

	struct window a = {0}, b = {.printed_capabilities = true};
	window_create(&app, &a, "fw-test-suspend A", false);
	if (fw_test_window_map(&a.base, display) < 0) {
		return 1;
	}
	window_draw(&app, &a, UINT32_MAX, 0);
	if (wl_display_roundtrip(display) < 0) {
		return 1;
	}
	window_create(&app, &b, "fw-test-suspend B", true);
	if (fw_test_window_map(&b.base, display) < 0) {
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
