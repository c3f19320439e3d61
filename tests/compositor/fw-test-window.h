#ifndef FAIRWAY_TESTS_COMPOSITOR_FW_TEST_WINDOW_H
#define FAIRWAY_TESTS_COMPOSITOR_FW_TEST_WINDOW_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

/*
 * The globals test windows draw with, bound by fw_test_window_connect:
 * wl_compositor (version 4), wl_shm, wp_viewporter,
 * wp_single_pixel_buffer_manager_v1 (version 1 each) and xdg_wm_base, whose
 * pings are answered. The client checks what it needs itself, so that
 * each says what is missing in its own words.
 */
struct fw_test_globals {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wp_viewporter *viewporter;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct xdg_wm_base *wm_base;
	/* The version xdg_wm_base is bound at, set before connecting (0: 1);
	 * left unbound where less is offered. */
	uint32_t wm_base_wanted;
	uint32_t wm_base_offered;
	/* Given every other global, set before connecting. */
	void (*bind)(void *data, struct wl_registry *registry, uint32_t name,
			const char *interface, uint32_t version);
	void *data;
};

/*
 * Connects and binds through one roundtrip. Says "PROG: cannot connect"
 * on stderr and returns false where there is no compositor.
 */
bool fw_test_window_connect(struct fw_test_globals *globals, const char *prog);
/* Destroys the globals it bound and disconnects. */
void fw_test_window_disconnect(struct fw_test_globals *globals);

/* A toplevel whose configures are acked. */
struct fw_test_window {
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	bool configured; /* a configure came */
	/* Called on each configure once acked, before configured is set,
	 * if set. */
	void (*configure)(struct fw_test_window *window);
};

/* Makes the surface and its toplevel titled title, not yet committed: the
 * client adds its roles' state before fw_test_window_map. */
void fw_test_window_create(struct fw_test_window *window,
		struct fw_test_globals *globals, const char *title);
/* Commits the empty surface and waits for its first configure. */
int fw_test_window_map(
		struct fw_test_window *window, struct wl_display *display);
void fw_test_window_destroy(struct fw_test_window *window);

/* Dispatches until *flag is set; -1 where the connection went. */
int fw_test_window_dispatch_until(struct wl_display *display, bool *flag);

#endif
