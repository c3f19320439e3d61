#include "fw-test-window.h"
#include <stdio.h>
#include <string.h>

static void handle_ping(
		void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
		.ping = handle_ping,
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct fw_test_globals *globals = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		globals->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		globals->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, wp_viewporter_interface.name) == 0) {
		globals->viewporter =
				wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
	} else if (strcmp(interface,
					   wp_single_pixel_buffer_manager_v1_interface.name) == 0) {
		globals->pixels = wl_registry_bind(registry, name,
				&wp_single_pixel_buffer_manager_v1_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		uint32_t wanted =
				globals->wm_base_wanted > 0 ? globals->wm_base_wanted : 1;
		globals->wm_base_offered = version;
		if (version >= wanted) {
			globals->wm_base = wl_registry_bind(
					registry, name, &xdg_wm_base_interface, wanted);
			xdg_wm_base_add_listener(
					globals->wm_base, &wm_base_listener, globals);
		}
	} else if (globals->bind != NULL) {
		globals->bind(globals->data, registry, name, interface, version);
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

bool fw_test_window_connect(struct fw_test_globals *globals, const char *prog) {
	globals->display = wl_display_connect(NULL);
	if (globals->display == NULL) {
		fprintf(stderr, "%s: cannot connect\n", prog);
		return false;
	}
	globals->registry = wl_display_get_registry(globals->display);
	wl_registry_add_listener(globals->registry, &registry_listener, globals);
	return wl_display_roundtrip(globals->display) >= 0;
}

void fw_test_window_disconnect(struct fw_test_globals *globals) {
	if (globals->wm_base != NULL) {
		xdg_wm_base_destroy(globals->wm_base);
	}
	if (globals->shm != NULL) {
		wl_shm_destroy(globals->shm);
	}
	if (globals->viewporter != NULL) {
		wp_viewporter_destroy(globals->viewporter);
	}
	if (globals->pixels != NULL) {
		wp_single_pixel_buffer_manager_v1_destroy(globals->pixels);
	}
	if (globals->compositor != NULL) {
		wl_compositor_destroy(globals->compositor);
	}
	wl_registry_destroy(globals->registry);
	wl_display_disconnect(globals->display);
}

static void handle_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct fw_test_window *window = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	if (window->configure != NULL) {
		window->configure(window);
	}
	window->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
		.configure = handle_configure,
};

void fw_test_window_create(struct fw_test_window *window,
		struct fw_test_globals *globals, const char *title) {
	window->surface = wl_compositor_create_surface(globals->compositor);
	window->xdg_surface =
			xdg_wm_base_get_xdg_surface(globals->wm_base, window->surface);
	xdg_surface_add_listener(
			window->xdg_surface, &xdg_surface_listener, window);
	window->toplevel = xdg_surface_get_toplevel(window->xdg_surface);
	xdg_toplevel_set_title(window->toplevel, title);
}

int fw_test_window_map(
		struct fw_test_window *window, struct wl_display *display) {
	wl_surface_commit(window->surface);
	return fw_test_window_dispatch_until(display, &window->configured);
}

void fw_test_window_destroy(struct fw_test_window *window) {
	xdg_toplevel_destroy(window->toplevel);
	xdg_surface_destroy(window->xdg_surface);
	wl_surface_destroy(window->surface);
}

int fw_test_window_dispatch_until(struct wl_display *display, bool *flag) {
	while (!*flag) {
		if (wl_display_dispatch(display) < 0) {
			return -1;
		}
	}
	return 0;
}
