#ifndef FAIRWAY_CLIENTS_COMMON_WINDOW_H
#define FAIRWAY_CLIENTS_COMMON_WINDOW_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

#include "clients/common/globals.h"

/*
 * An xdg toplevel. The clients draw at their own fixed size whatever the
 * compositor suggests, so that runs are comparable across compositors.
 */
struct fw_window {
	struct fw_globals *globals;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct zxdg_toplevel_decoration_v1 *decoration;
	bool configured;
	bool closed;
	uint32_t configures; /* how many configure sequences were acked */
};

struct fw_window *fw_window_create(
		struct fw_globals *globals, const char *title);

void fw_window_destroy(struct fw_window *window);

/*
 * Commits the role without a buffer and waits for the first configure
 * (acked by the handler); the caller then attaches its first buffer.
 * Returns -1 on a connection error or when the window was closed.
 */
int fw_window_wait_configured(struct fw_window *window);

#endif
