/*
 * The order a client is told things in. What one commit sets off for the
 * client's other surfaces reaches it before that commit's frame done: a
 * client that waits for the frame done then finds its windows already
 * configured, as it would after a paint.
 */
#include "tests/wlcs/edges.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include <time.h>

#define PANEL_ZONE 30
/* Rounds half a millisecond apart, over a 60 Hz period and a little. */
#define PANEL_ROUNDS 35
#define PANEL_STEP_US 500

struct panel {
	struct edges_window *window;
	struct wl_surface *surface;
	struct zwlr_layer_surface_v1 *layer_surface;
	uint32_t serial;
	int height;
	bool configured, done;
	/* The window's configured width when the frame done came. */
	int window_width_at_done;
};

static void handle_panel_configure(void *data,
		struct zwlr_layer_surface_v1 *layer_surface, uint32_t serial,
		uint32_t width, uint32_t height) {
	struct panel *panel = data;
	panel->serial = serial;
	panel->height = (int)height;
	panel->configured = true;
}

static void handle_panel_closed(
		void *data, struct zwlr_layer_surface_v1 *layer_surface) {
}

static const struct zwlr_layer_surface_v1_listener panel_listener = {
		.configure = handle_panel_configure,
		.closed = handle_panel_closed,
};

static void handle_panel_frame(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct panel *panel = data;
	panel->done = true;
	panel->window_width_at_done = panel->window->configured_width;
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener panel_frame_listener = {
		.done = handle_panel_frame,
};

static void sleep_us(long us) {
	struct timespec ts = {
			.tv_sec = us / 1000000, .tv_nsec = us % 1000000 * 1000};
	while (nanosleep(&ts, &ts) != 0) {
	}
}

/* Maps a panel along the left edge, DELAY_US after its first configure. */
static bool panel_map(struct panel *panel, struct edges_client *client,
		struct edges_window *window, long delay_us) {
	*panel = (struct panel){.window = window};
	panel->surface = wl_compositor_create_surface(client->compositor);
	panel->layer_surface = zwlr_layer_shell_v1_get_layer_surface(
			client->layer_shell, panel->surface, NULL,
			ZWLR_LAYER_SHELL_V1_LAYER_TOP, "edges-panel");
	zwlr_layer_surface_v1_add_listener(
			panel->layer_surface, &panel_listener, panel);
	zwlr_layer_surface_v1_set_anchor(panel->layer_surface,
			ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
					ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP |
					ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM);
	zwlr_layer_surface_v1_set_size(panel->layer_surface, PANEL_ZONE, 0);
	zwlr_layer_surface_v1_set_exclusive_zone(panel->layer_surface, PANEL_ZONE);
	wl_surface_commit(panel->surface);
	while (!panel->configured) {
		if (wl_display_dispatch(client->display) < 0) {
			return FAIL("no configure for a new panel");
		}
	}
	zwlr_layer_surface_v1_ack_configure(panel->layer_surface, panel->serial);
	/* Not a wait: each round's commit comes at another point of the
	 * output's period, where fairway may be painting, planning frame
	 * dones, or idle. */
	sleep_us(delay_us);
	/* The window draws just before, as in wlcs' case, so that a paint
	 * may be under way as the panel's commit comes. */
	if (!edges_window_draw(
				window, window->configured_width, window->configured_height)) {
		return false;
	}
	if (!edges_roundtrip(client)) {
		return FAIL("lost fairway");
	}
	struct wl_buffer *buffer =
			edges_buffer(client, PANEL_ZONE, panel->height, 0xff66cc33);
	if (buffer == NULL) {
		return FAIL("cannot make a buffer");
	}
	wl_surface_attach(panel->surface, buffer, 0, 0);
	wl_surface_damage(panel->surface, 0, 0, PANEL_ZONE, panel->height);
	struct wl_callback *callback = wl_surface_frame(panel->surface);
	wl_callback_add_listener(callback, &panel_frame_listener, panel);
	wl_surface_commit(panel->surface);
	while (!panel->done) {
		if (wl_display_dispatch(client->display) < 0) {
			return FAIL("lost fairway waiting for the panel's frame done");
		}
	}
	return true;
}

static void panel_destroy(struct panel *panel) {
	zwlr_layer_surface_v1_destroy(panel->layer_surface);
	wl_surface_destroy(panel->surface);
}

/* Roundtrips until the window's configured width is WIDTH. */
static bool window_width_becomes(
		struct edges_client *client, struct edges_window *window, int width) {
	for (int i = 0; i < 20 && window->configured_width != width; i++) {
		if (!edges_roundtrip(client)) {
			return FAIL("lost fairway");
		}
	}
	return CHECK(window->configured_width == width,
			"the window's width is %d, not %d", window->configured_width,
			width);
}

/*
 * A panel's exclusive zone shrinks the maximized window as the panel maps;
 * the window's configure comes before the panel's first frame done, in
 * every round, and the panel's unmap gives the width back.
 */
static bool zone_before_frame(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server)) {
		return false;
	}
	if (client.layer_shell == NULL) {
		edges_client_disconnect(&client);
		return FAIL("fairway offers no zwlr_layer_shell_v1");
	}
	if (!edges_window_create(&window, &client, 200, 200, 0, 0)) {
		edges_client_disconnect(&client);
		return false;
	}
	xdg_toplevel_set_maximized(window.toplevel);
	bool ok = true;
	for (int i = 0; i < 20 && window.configured_width <= 200; i++) {
		ok = edges_roundtrip(&client);
		if (!ok) {
			break;
		}
	}
	int full = window.configured_width;
	ok = ok && CHECK(full > 200, "the maximized window is %d wide", full);
	/* Every round, so that a failure says how often. */
	int late = 0, first_late = -1, late_width = 0;
	for (int round = 0; ok && round < PANEL_ROUNDS; round++) {
		struct panel panel;
		ok = panel_map(&panel, &client, &window, round * PANEL_STEP_US);
		if (ok && panel.window_width_at_done != full - PANEL_ZONE) {
			if (late++ == 0) {
				first_late = round;
				late_width = panel.window_width_at_done;
			}
		}
		panel_destroy(&panel);
		ok = ok && window_width_becomes(&client, &window, full);
	}
	ok = ok &&
			CHECK(late == 0,
					"in %d of %d rounds the window's configure came after the "
					"panel's frame done (first: round %d, %d wide, not %d)",
					late, PANEL_ROUNDS, first_late, late_width,
					full - PANEL_ZONE);
	edges_window_destroy(&window);
	edges_client_disconnect(&client);
	return ok;
}

const struct edges_case edges_order_cases[] = {
		{"zone-before-frame", zone_before_frame},
		{NULL, NULL},
};
