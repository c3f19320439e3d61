/*
 * Requests the protocols forbid, each of which must end its client with
 * the error the protocol names (raised by wlroots or, where it lets one
 * through, by compositor/shell/protocol_checks.c), and a decoration mode asked
 * for before the first commit, which must be answered at that commit.
 */
#include "tests/wlcs/edges.h"
#include "viewporter-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Another client still gets its answers: fairway is alive and well. */
static bool fairway_alive(struct edges_server *server) {
	struct edges_client other;
	bool ok = edges_client_connect(&other, server) && edges_roundtrip(&other);
	edges_client_disconnect(&other);
	return ok || FAIL("fairway no longer answers another client");
}

static bool xdg_surface_on_subsurface(struct edges_server *server) {
	struct edges_client client;
	struct edges_window parent;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&parent, &client, 100, 100, 10, 10)) {
		return false;
	}
	struct wl_subsurface *subsurface;
	struct wl_surface *surface = edges_subsurface_create(
			&client, parent.surface, &subsurface, 0, 0, 20, 20);
	edges_roundtrip(&client);
	xdg_wm_base_get_xdg_surface(client.wm_base, surface);
	bool ok =
			edges_expect_error(&client, "xdg_wm_base", XDG_WM_BASE_ERROR_ROLE);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

static bool xdg_surface_with_buffer(struct edges_server *server, bool commit) {
	struct edges_client client;
	if (!edges_client_connect(&client, server)) {
		return false;
	}
	struct wl_surface *surface =
			wl_compositor_create_surface(client.compositor);
	wl_surface_attach(surface, edges_buffer(&client, 30, 30, 0xffffffff), 0, 0);
	if (commit) {
		wl_surface_commit(surface);
	}
	edges_roundtrip(&client);
	xdg_wm_base_get_xdg_surface(client.wm_base, surface);
	bool ok = edges_expect_error(
			&client, "xdg_wm_base", XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

static bool xdg_surface_attached_buffer(struct edges_server *server) {
	return xdg_surface_with_buffer(server, false);
}

static bool xdg_surface_committed_buffer(struct edges_server *server) {
	return xdg_surface_with_buffer(server, true);
}

static bool attach_before_configure(struct edges_server *server) {
	struct edges_client client;
	if (!edges_client_connect(&client, server)) {
		return false;
	}
	struct wl_surface *surface =
			wl_compositor_create_surface(client.compositor);
	struct wl_buffer *buffer = edges_buffer(&client, 30, 30, 0xffffffff);
	edges_roundtrip(&client);
	xdg_wm_base_get_xdg_surface(client.wm_base, surface);
	wl_surface_attach(surface, buffer, 0, 0);
	bool ok = edges_expect_error(
			&client, "xdg_surface", XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

/* A toplevel that is its own parent: a loop that, let through, would
 * never end once the toplevel unmapped. */
static bool parent_is_self(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 100, 100, 10, 10)) {
		return false;
	}
	xdg_toplevel_set_parent(window.toplevel, window.toplevel);
	bool ok = edges_expect_error(
			&client, "xdg_toplevel", XDG_TOPLEVEL_ERROR_INVALID_PARENT);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

static bool parent_is_descendant(struct edges_server *server) {
	struct edges_client client;
	struct edges_window a, b, c;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&a, &client, 50, 50, 10, 10) ||
			!edges_window_create(&b, &client, 50, 50, 70, 10) ||
			!edges_window_create(&c, &client, 50, 50, 130, 10)) {
		return false;
	}
	xdg_toplevel_set_parent(b.toplevel, a.toplevel);
	xdg_toplevel_set_parent(c.toplevel, b.toplevel);
	if (!edges_roundtrip(&client)) {
		return FAIL("a plain parent was refused");
	}
	xdg_toplevel_set_parent(a.toplevel, c.toplevel);
	bool ok = edges_expect_error(
			&client, "xdg_toplevel", XDG_TOPLEVEL_ERROR_INVALID_PARENT);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

static void handle_decoration_configure(void *data,
		struct zxdg_toplevel_decoration_v1 *decoration, uint32_t mode) {
	uint32_t *got = data;
	*got = mode;
}

static const struct zxdg_toplevel_decoration_v1_listener decoration_listener = {
		.configure = handle_decoration_configure,
};

/* Toplevel and decoration, no commit yet: what a client sets up first. */
static bool fresh_toplevel(struct edges_client *client,
		struct wl_surface **surface, struct xdg_toplevel **toplevel,
		struct zxdg_toplevel_decoration_v1 **decoration, uint32_t *mode) {
	if (client->decoration_manager == NULL) {
		return FAIL("no zxdg_decoration_manager_v1");
	}
	*surface = wl_compositor_create_surface(client->compositor);
	struct xdg_surface *xdg_surface =
			xdg_wm_base_get_xdg_surface(client->wm_base, *surface);
	*toplevel = xdg_surface_get_toplevel(xdg_surface);
	*decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(
			client->decoration_manager, *toplevel);
	zxdg_toplevel_decoration_v1_add_listener(
			*decoration, &decoration_listener, mode);
	return true;
}

/*
 * xdg-shell allows no configure before a toplevel's initial commit: the
 * mode asked for before it comes with the configure that answers it.
 */
static bool decoration_mode(
		struct edges_server *server, int asked, uint32_t expected) {
	struct edges_client client;
	struct wl_surface *surface;
	struct xdg_toplevel *toplevel;
	struct zxdg_toplevel_decoration_v1 *decoration;
	uint32_t mode = 0;
	if (!edges_client_connect(&client, server) ||
			!fresh_toplevel(&client, &surface, &toplevel, &decoration, &mode)) {
		return false;
	}
	if (asked == 0) {
		zxdg_toplevel_decoration_v1_unset_mode(decoration);
	} else {
		zxdg_toplevel_decoration_v1_set_mode(decoration, (uint32_t)asked);
	}
	wl_surface_commit(surface);
	for (int i = 0; i < 3 && mode == 0 && edges_roundtrip(&client); i++) {
	}
	edges_client_disconnect(&client);
	return CHECK(mode == expected,
			"decoration mode %d asked before the first commit: configure "
			"%u, expected %u",
			asked, mode, expected);
}

static bool decoration_client_before_commit(struct edges_server *server) {
	return decoration_mode(server, ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE,
			ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE);
}

static bool decoration_server_before_commit(struct edges_server *server) {
	return decoration_mode(server, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE,
			ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

/* No preference: fairway's default, server-side. */
static bool decoration_unset_before_commit(struct edges_server *server) {
	return decoration_mode(
			server, 0, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

static bool decoration_twice(struct edges_server *server) {
	struct edges_client client;
	struct wl_surface *surface;
	struct xdg_toplevel *toplevel;
	struct zxdg_toplevel_decoration_v1 *decoration;
	uint32_t mode = 0;
	if (!edges_client_connect(&client, server) ||
			!fresh_toplevel(&client, &surface, &toplevel, &decoration, &mode)) {
		return false;
	}
	zxdg_decoration_manager_v1_get_toplevel_decoration(
			client.decoration_manager, toplevel);
	bool ok = edges_expect_error(&client, "zxdg_decoration_manager_v1",
			ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

static bool decoration_orphaned(struct edges_server *server) {
	struct edges_client client;
	struct wl_surface *surface;
	struct xdg_toplevel *toplevel;
	struct zxdg_toplevel_decoration_v1 *decoration;
	uint32_t mode = 0;
	if (!edges_client_connect(&client, server) ||
			!fresh_toplevel(&client, &surface, &toplevel, &decoration, &mode)) {
		return false;
	}
	xdg_toplevel_destroy(toplevel);
	bool ok = edges_expect_error(&client, "zxdg_decoration_manager_v1",
			ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

static bool viewport_twice(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 100, 100, 10, 10)) {
		return false;
	}
	if (client.viewporter == NULL) {
		return FAIL("no wp_viewporter");
	}
	wp_viewporter_get_viewport(client.viewporter, window.surface);
	wp_viewporter_get_viewport(client.viewporter, window.surface);
	bool ok = edges_expect_error(
			&client, "wp_viewporter", WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

/* At scale 2 a 200x100 buffer is 100x50 in surface coordinates. */
static bool viewport_source_outside(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 200, 100, 10, 10)) {
		return false;
	}
	if (client.viewporter == NULL) {
		return FAIL("no wp_viewporter");
	}
	struct wp_viewport *viewport =
			wp_viewporter_get_viewport(client.viewporter, window.surface);
	wl_surface_set_buffer_scale(window.surface, 2);
	/* With a destination, a source of fractional size is allowed: what
	 * must be refused is its half unit past the buffer. */
	wp_viewport_set_destination(viewport, 50, 50);
	wp_viewport_set_source(viewport, wl_fixed_from_int(50),
			wl_fixed_from_int(0), wl_fixed_from_double(50.5),
			wl_fixed_from_int(50));
	wl_surface_commit(window.surface);
	bool ok = edges_expect_error(
			&client, "wp_viewport", WP_VIEWPORT_ERROR_OUT_OF_BUFFER);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

/* A pool of POOL_SIZE bytes, and of it a buffer it cannot give: refused
 * on the pool with CODE. */
static bool shm_buffer_refused(struct edges_server *server, int32_t pool_size,
		int32_t offset, int32_t width, int32_t stride, uint32_t format,
		uint32_t code) {
	struct edges_client client;
	if (!edges_client_connect(&client, server)) {
		return false;
	}
	struct wl_shm_pool *pool = edges_pool(&client, pool_size, pool_size, NULL);
	if (pool == NULL) {
		return FAIL("memfd: %s", strerror(errno));
	}
	wl_shm_pool_create_buffer(pool, offset, width, 200, stride, format);
	bool ok = edges_expect_error(&client, "wl_shm_pool", code);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

/* A stride of width, in bytes, for 4-byte pixels. */
static bool shm_stride_too_small(struct edges_server *server) {
	return shm_buffer_refused(server, 200 * 200, 0, 200, 200,
			WL_SHM_FORMAT_ARGB8888, WL_SHM_ERROR_INVALID_STRIDE);
}

/* A stride that ends inside a pixel. */
static bool shm_stride_split_pixel(struct edges_server *server) {
	return shm_buffer_refused(server, 802 * 200, 0, 200, 802,
			WL_SHM_FORMAT_ARGB8888, WL_SHM_ERROR_INVALID_STRIDE);
}

/* A buffer that would end 4 bytes past its pool. */
static bool shm_buffer_past_pool(struct edges_server *server) {
	return shm_buffer_refused(server, 800 * 200, 4, 200, 800,
			WL_SHM_FORMAT_ARGB8888, WL_SHM_ERROR_INVALID_STRIDE);
}

/* NV12, planar: never offered. */
static bool shm_format_unoffered(struct edges_server *server) {
	return shm_buffer_refused(server, 800 * 200, 0, 200, 800,
			WL_SHM_FORMAT_NV12, WL_SHM_ERROR_INVALID_FORMAT);
}

/* wl_shm_pool.resize may only grow a pool. */
static bool shm_pool_shrunk(struct edges_server *server) {
	struct edges_client client;
	if (!edges_client_connect(&client, server)) {
		return false;
	}
	struct wl_shm_pool *pool = edges_pool(&client, 8192, 4096, NULL);
	if (pool == NULL) {
		return FAIL("memfd: %s", strerror(errno));
	}
	wl_shm_pool_resize(pool, 8192);
	if (!edges_roundtrip(&client)) {
		edges_client_disconnect(&client);
		return FAIL("growing a pool was refused");
	}
	wl_shm_pool_resize(pool, 4096);
	bool ok = edges_expect_error(
			&client, "wl_shm_pool", WL_SHM_ERROR_INVALID_STRIDE);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	bool *done = data;
	*done = true;
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

/*
 * The pool shrinks to 12 bytes under a buffer before it is committed: the
 * error comes at the commit, before any frame done, even for a window no
 * output shows (off every output here), whose buffer is never painted.
 */
static bool shm_truncated(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 200, 200, 10, 10)) {
		return false;
	}
	int size = 200 * 200 * 4;
	int fd;
	struct wl_shm_pool *pool = edges_pool(&client, size, size, &fd);
	if (pool == NULL) {
		return FAIL("memfd: %s", strerror(errno));
	}
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(
			pool, 0, 200, 200, 800, WL_SHM_FORMAT_ARGB8888);
	wl_shm_pool_destroy(pool);
	if (ftruncate(fd, 12) < 0) {
		return FAIL("ftruncate: %s", strerror(errno));
	}
	close(fd);
	edges_window_move(&window, 5000, 5000);
	bool done = false;
	wl_surface_attach(window.surface, buffer, 0, 0);
	wl_surface_damage(window.surface, 0, 0, 200, 200);
	struct wl_callback *callback = wl_surface_frame(window.surface);
	wl_callback_add_listener(callback, &frame_listener, &done);
	wl_surface_commit(window.surface);
	for (int i = 0; i < 20 && !done && edges_roundtrip(&client); i++) {
	}
	if (done) {
		edges_client_disconnect(&client);
		return FAIL("a frame done came for a buffer whose pool was truncated");
	}
	bool ok = edges_expect_error(&client, "wl_buffer", WL_SHM_ERROR_INVALID_FD);
	edges_client_disconnect(&client);
	return ok && fairway_alive(server);
}

const struct edges_case edges_protocol_cases[] = {
		{"xdg-surface-on-subsurface", xdg_surface_on_subsurface},
		{"xdg-surface-attached-buffer", xdg_surface_attached_buffer},
		{"xdg-surface-committed-buffer", xdg_surface_committed_buffer},
		{"attach-before-configure", attach_before_configure},
		{"parent-is-self", parent_is_self},
		{"parent-is-descendant", parent_is_descendant},
		{"decoration-client-before-commit", decoration_client_before_commit},
		{"decoration-server-before-commit", decoration_server_before_commit},
		{"decoration-unset-before-commit", decoration_unset_before_commit},
		{"decoration-twice", decoration_twice},
		{"decoration-orphaned", decoration_orphaned},
		{"viewport-twice", viewport_twice},
		{"viewport-source-outside", viewport_source_outside},
		{"shm-stride-too-small", shm_stride_too_small},
		{"shm-stride-split-pixel", shm_stride_split_pixel},
		{"shm-buffer-past-pool", shm_buffer_past_pool},
		{"shm-format-unoffered", shm_format_unoffered},
		{"shm-pool-shrunk", shm_pool_shrunk},
		{"shm-truncated", shm_truncated},
		{NULL, NULL},
};
