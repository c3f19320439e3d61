#include "clients/common/window.h"

#include <stdlib.h>

#include "clients/common/pump.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

static void handle_xdg_surface_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct fw_window *window = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	window->configured = true;
	window->configures++;
}

static const struct xdg_surface_listener xdg_surface_listener = {
		.configure = handle_xdg_surface_configure,
};

static void handle_toplevel_configure(void *data, struct xdg_toplevel *toplevel,
		int32_t width, int32_t height, struct wl_array *states) {
	/* The size is ours; see the comment on struct fw_window. */
}

static void handle_toplevel_close(void *data, struct xdg_toplevel *toplevel) {
	struct fw_window *window = data;
	window->closed = true;
}

static const struct xdg_toplevel_listener toplevel_listener = {
		.configure = handle_toplevel_configure,
		.close = handle_toplevel_close,
};

struct fw_window *fw_window_create(
		struct fw_globals *globals, const char *title) {
	struct fw_window *window = calloc(1, sizeof(*window));
	if (window == NULL) {
		return NULL;
	}
	window->globals = globals;
	window->surface = wl_compositor_create_surface(globals->compositor);
	if (window->surface == NULL) {
		goto err_free;
	}
	window->xdg_surface =
			xdg_wm_base_get_xdg_surface(globals->wm_base, window->surface);
	if (window->xdg_surface == NULL) {
		goto err_surface;
	}
	xdg_surface_add_listener(
			window->xdg_surface, &xdg_surface_listener, window);
	window->toplevel = xdg_surface_get_toplevel(window->xdg_surface);
	if (window->toplevel == NULL) {
		goto err_xdg_surface;
	}
	xdg_toplevel_add_listener(window->toplevel, &toplevel_listener, window);
	xdg_toplevel_set_title(window->toplevel, title);
	xdg_toplevel_set_app_id(window->toplevel, title);
	if (globals->decoration_manager != NULL) {
		/* Server-side decorations keep our buffer exactly what we draw. */
		window->decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(
				globals->decoration_manager, window->toplevel);
		if (window->decoration != NULL) {
			zxdg_toplevel_decoration_v1_set_mode(window->decoration,
					ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
		}
	}
	return window;

err_xdg_surface:
	xdg_surface_destroy(window->xdg_surface);
err_surface:
	wl_surface_destroy(window->surface);
err_free:
	free(window);
	return NULL;
}

void fw_window_destroy(struct fw_window *window) {
	if (window == NULL) {
		return;
	}
	if (window->decoration != NULL) {
		zxdg_toplevel_decoration_v1_destroy(window->decoration);
	}
	xdg_toplevel_destroy(window->toplevel);
	xdg_surface_destroy(window->xdg_surface);
	wl_surface_destroy(window->surface);
	free(window);
}

int fw_window_wait_configured(struct fw_window *window) {
	wl_surface_commit(window->surface);
	while (!window->configured && !window->closed) {
		if (fw_pump(window->globals->display, -1) < 0) {
			return -1;
		}
	}
	return window->closed ? -1 : 0;
}
