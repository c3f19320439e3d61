/*
 * Protocol errors wlroots 0.15 does not raise, raised here: each check
 * names the wlroots function that lets the request through. A request is
 * looked at before libwayland dispatches it (a protocol logger sees it
 * first); the error is posted on the object the protocol names, and
 * libwayland disconnects the client right after that request, so the
 * request itself then runs against a client that is already gone and
 * changes nothing anyone will see.
 *
 * Buffers are checked where they are committed: a shm buffer whose pool
 * was truncated under it is caught then, before any frame done reaches
 * its client, not only once it is painted.
 */
#include "compositor/protocol_checks.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include "viewporter-protocol.h"
#include "xdg-decoration-unstable-v1-protocol.h"
#include "xdg-shell-protocol.h"
#include <stdlib.h>
#include <string.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/addon.h>

struct fw_protocol_checks {
	struct fw_server *server;
	struct wl_protocol_logger *logger;
	struct wl_listener client_created;
	struct wl_listener new_surface;
	/* The wl_surface of the get_viewport being dispatched, if any. */
	struct wlr_surface *viewport_surface;
	/* Which decoration manager made each decoration (orphaned's target). */
	struct wl_list decorations; /* fw_decoration_origin.link */
};

/* A client's resource_created listener. */
struct fw_checked_client {
	struct fw_protocol_checks *checks;
	struct wl_listener resource_created;
	struct wl_listener destroy;
};

/* What is known of a surface: its viewport, and its commits. */
struct fw_checked_surface {
	struct wlr_addon addon;
	struct fw_protocol_checks *checks;
	struct wlr_surface *surface;
	struct wl_resource *viewport; /* NULL without one */
	struct wl_listener viewport_destroy;
	struct wl_listener commit;
};

struct fw_decoration_origin {
	struct wl_list link; /* fw_protocol_checks.decorations */
	struct wl_resource *toplevel;
	struct wl_resource *manager;
	struct wl_listener toplevel_destroy;
	struct wl_listener manager_destroy;
};

static bool is(const struct wl_protocol_logger_message *message,
		const char *interface, const char *request) {
	return strcmp(message->message->name, request) == 0 &&
			strcmp(wl_resource_get_class(message->resource), interface) == 0;
}

static struct wl_resource *object_arg(
		const struct wl_protocol_logger_message *message, int index) {
	if (index >= message->arguments_count) {
		return NULL;
	}
	return (struct wl_resource *)message->arguments[index].o;
}

static const struct wlr_addon_interface checked_surface_impl;

static struct fw_checked_surface *checked_surface(
		struct fw_protocol_checks *checks, struct wlr_surface *surface) {
	struct wlr_addon *addon =
			wlr_addon_find(&surface->addons, checks, &checked_surface_impl);
	return addon != NULL
			? wl_container_of(addon, (struct fw_checked_surface *)NULL, addon)
			: NULL;
}

/* The xdg_surface made for surface, even one without a role yet. */
static struct wlr_xdg_surface *xdg_surface_of(
		struct fw_server *server, struct wlr_surface *surface) {
	struct wl_client *client = wl_resource_get_client(surface->resource);
	struct wlr_xdg_client *xdg_client;
	wl_list_for_each(xdg_client, &server->xdg_shell->clients, link) {
		if (xdg_client->client != client) {
			continue;
		}
		struct wlr_xdg_surface *xdg_surface;
		wl_list_for_each(xdg_surface, &xdg_client->surfaces, link) {
			if (xdg_surface->surface == surface) {
				return xdg_surface;
			}
		}
	}
	return NULL;
}

static bool has_buffer(struct wlr_surface *surface) {
	return wlr_surface_has_buffer(surface) ||
			((surface->pending.committed & WLR_SURFACE_STATE_BUFFER) &&
					surface->pending.buffer != NULL);
}

/*
 * wlroots' create_xdg_surface checks only for a committed buffer, with
 * xdg_surface's error code on the xdg_wm_base; a surface with another role
 * or an attached buffer passes.
 */
static void check_get_xdg_surface(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	struct wl_resource *surface_resource = object_arg(message, 1);
	if (surface_resource == NULL) {
		return;
	}
	struct wlr_surface *surface = wlr_surface_from_resource(surface_resource);
	if (surface->role != NULL || xdg_surface_of(checks->server, surface)) {
		wl_resource_post_error(message->resource, XDG_WM_BASE_ERROR_ROLE,
				"wl_surface@%u already has a role",
				wl_resource_get_id(surface_resource));
	} else if (has_buffer(surface)) {
		wl_resource_post_error(message->resource,
				XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
				"wl_surface@%u has a buffer attached",
				wl_resource_get_id(surface_resource));
	}
}

/* wlroots refuses an unconfigured xdg_surface's buffer only at commit. */
static void check_attach(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	if (object_arg(message, 0) == NULL) {
		return;
	}
	struct wlr_surface *surface = wlr_surface_from_resource(message->resource);
	struct wlr_xdg_surface *xdg_surface =
			xdg_surface_of(checks->server, surface);
	if (xdg_surface != NULL && !xdg_surface->configured &&
			wl_list_empty(&xdg_surface->configure_list)) {
		wl_resource_post_error(xdg_surface->resource,
				XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
				"a buffer attached before the first configure");
	}
}

static struct wlr_xdg_toplevel_decoration_v1 *decoration_of(
		struct fw_server *server, struct wlr_xdg_surface *xdg_surface) {
	struct wlr_xdg_toplevel_decoration_v1 *decoration;
	wl_list_for_each(decoration, &server->xdg_decoration->decorations, link) {
		if (decoration->surface == xdg_surface) {
			return decoration;
		}
	}
	return NULL;
}

static void origin_destroy(struct fw_decoration_origin *origin) {
	wl_list_remove(&origin->link);
	fw_listener_disconnect(&origin->toplevel_destroy);
	fw_listener_disconnect(&origin->manager_destroy);
	free(origin);
}

static void handle_origin_toplevel_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_decoration_origin *origin =
			wl_container_of(listener, origin, toplevel_destroy);
	origin_destroy(origin);
}

static void handle_origin_manager_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_decoration_origin *origin =
			wl_container_of(listener, origin, manager_destroy);
	fw_listener_disconnect(&origin->manager_destroy);
	origin->manager = NULL;
}

/* wlroots' decoration_manager_handle_get_toplevel_decoration makes a
 * second decoration for a toplevel that has one. */
static void check_get_decoration(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	struct wl_resource *toplevel = object_arg(message, 1);
	if (toplevel == NULL || checks->server->xdg_decoration == NULL) {
		return;
	}
	struct wlr_xdg_surface *xdg_surface =
			wlr_xdg_surface_from_toplevel_resource(toplevel);
	if (xdg_surface == NULL) {
		return;
	}
	if (decoration_of(checks->server, xdg_surface) != NULL) {
		wl_resource_post_error(message->resource,
				ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ALREADY_CONSTRUCTED,
				"xdg_toplevel@%u already has a decoration",
				wl_resource_get_id(toplevel));
		return;
	}
	struct fw_decoration_origin *origin = calloc(1, sizeof(*origin));
	if (origin == NULL) {
		return;
	}
	origin->toplevel = toplevel;
	origin->manager = message->resource;
	origin->toplevel_destroy.notify = handle_origin_toplevel_destroy;
	wl_resource_add_destroy_listener(toplevel, &origin->toplevel_destroy);
	origin->manager_destroy.notify = handle_origin_manager_destroy;
	wl_resource_add_destroy_listener(
			message->resource, &origin->manager_destroy);
	wl_list_insert(&checks->decorations, &origin->link);
}

/* Nothing in wlroots 0.15 checks that a decoration goes before its
 * toplevel. */
static void check_toplevel_destroy(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	if (checks->server->xdg_decoration == NULL) {
		return;
	}
	struct wlr_xdg_surface *xdg_surface =
			wlr_xdg_surface_from_toplevel_resource(message->resource);
	struct wlr_xdg_toplevel_decoration_v1 *decoration = xdg_surface != NULL
			? decoration_of(checks->server, xdg_surface)
			: NULL;
	if (decoration == NULL) {
		return;
	}
	struct wl_resource *target = decoration->resource;
	struct fw_decoration_origin *origin;
	wl_list_for_each(origin, &checks->decorations, link) {
		if (origin->toplevel == message->resource && origin->manager != NULL) {
			/* Where the decoration was asked for, as wlcs expects. */
			target = origin->manager;
			break;
		}
	}
	wl_resource_post_error(target, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED,
			"xdg_toplevel@%u destroyed before its decoration",
			wl_resource_get_id(message->resource));
}

/* wlroots' viewporter_handle_get_viewport makes a second viewport. */
static void check_get_viewport(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	struct wl_resource *surface_resource = object_arg(message, 1);
	if (surface_resource == NULL) {
		return;
	}
	struct wlr_surface *surface = wlr_surface_from_resource(surface_resource);
	struct fw_checked_surface *checked = checked_surface(checks, surface);
	if (checked != NULL && checked->viewport != NULL) {
		wl_resource_post_error(message->resource,
				WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS,
				"wl_surface@%u already has a viewport",
				wl_resource_get_id(surface_resource));
		return;
	}
	/* Its wp_viewport is made next (handle_resource_created). */
	checks->viewport_surface = surface;
}

/* Bytes a pixel of the common wl_shm formats takes; 0 when unknown. */
static int shm_bytes_per_pixel(uint32_t format) {
	switch (format) {
	case WL_SHM_FORMAT_ARGB8888:
	case WL_SHM_FORMAT_XRGB8888:
	case WL_SHM_FORMAT_ABGR8888:
	case WL_SHM_FORMAT_XBGR8888:
	case WL_SHM_FORMAT_RGBA8888:
	case WL_SHM_FORMAT_RGBX8888:
	case WL_SHM_FORMAT_BGRA8888:
	case WL_SHM_FORMAT_BGRX8888:
	case WL_SHM_FORMAT_ARGB2101010:
	case WL_SHM_FORMAT_XRGB2101010:
	case WL_SHM_FORMAT_ABGR2101010:
	case WL_SHM_FORMAT_XBGR2101010:
		return 4;
	case WL_SHM_FORMAT_RGB888:
	case WL_SHM_FORMAT_BGR888:
		return 3;
	case WL_SHM_FORMAT_RGB565:
	case WL_SHM_FORMAT_BGR565:
	case WL_SHM_FORMAT_ARGB4444:
	case WL_SHM_FORMAT_XRGB4444:
	case WL_SHM_FORMAT_ARGB1555:
	case WL_SHM_FORMAT_XRGB1555:
		return 2;
	case WL_SHM_FORMAT_ABGR16161616F:
	case WL_SHM_FORMAT_XBGR16161616F:
		return 8;
	default:
		return 0;
	}
}

/* libwayland's shm_pool_create_buffer compares the stride with the width
 * in pixels, not in bytes. */
static void check_create_buffer(
		const struct wl_protocol_logger_message *message) {
	if (message->arguments_count < 6) {
		return;
	}
	int32_t width = message->arguments[2].i;
	int32_t stride = message->arguments[4].i;
	int bpp = shm_bytes_per_pixel(message->arguments[5].u);
	if (bpp > 0 && width > 0 && stride / bpp < width) {
		wl_resource_post_error(message->resource, WL_SHM_ERROR_INVALID_STRIDE,
				"stride %d is too small for %d pixels of %d bytes", stride,
				width, bpp);
	}
}

static void handle_request(void *data, enum wl_protocol_logger_type type,
		const struct wl_protocol_logger_message *message) {
	if (type != WL_PROTOCOL_LOGGER_REQUEST) {
		return;
	}
	struct fw_protocol_checks *checks = data;
	if (is(message, "wl_surface", "attach")) {
		check_attach(checks, message);
	} else if (is(message, "xdg_wm_base", "get_xdg_surface")) {
		check_get_xdg_surface(checks, message);
	} else if (is(message, "zxdg_decoration_manager_v1",
					   "get_toplevel_decoration")) {
		check_get_decoration(checks, message);
	} else if (is(message, "xdg_toplevel", "destroy")) {
		check_toplevel_destroy(checks, message);
	} else if (is(message, "wp_viewporter", "get_viewport")) {
		check_get_viewport(checks, message);
	} else if (is(message, "wl_shm_pool", "create_buffer")) {
		check_create_buffer(message);
	}
}

static void checked_surface_destroy(struct fw_checked_surface *checked) {
	fw_listener_disconnect(&checked->viewport_destroy);
	fw_listener_disconnect(&checked->commit);
	wlr_addon_finish(&checked->addon);
	free(checked);
}

static void checked_surface_addon_destroy(struct wlr_addon *addon) {
	struct fw_checked_surface *checked = wl_container_of(addon, checked, addon);
	checked_surface_destroy(checked);
}

static const struct wlr_addon_interface checked_surface_impl = {
		.name = "fw_checked_surface",
		.destroy = checked_surface_addon_destroy,
};

static void handle_viewport_destroy(struct wl_listener *listener, void *data) {
	struct fw_checked_surface *checked =
			wl_container_of(listener, checked, viewport_destroy);
	fw_listener_disconnect(&checked->viewport_destroy);
	checked->viewport = NULL;
}

/*
 * wlroots' viewport_handle_surface_commit reads the pending state after
 * the commit moved it to current: its out_of_buffer check never sees a
 * buffer, and it compares with the buffer's own size, not with the
 * buffer as the surface's scale and transform make it.
 */
static void check_viewport_source(struct fw_checked_surface *checked) {
	struct wlr_surface *surface = checked->surface;
	const struct wlr_surface_state *state = &surface->current;
	if (checked->viewport == NULL || !state->viewport.has_src ||
			state->buffer_width == 0 || state->scale <= 0) {
		return;
	}
	int width = state->buffer_width, height = state->buffer_height;
	if (state->transform & WL_OUTPUT_TRANSFORM_90) {
		int swap = width;
		width = height;
		height = swap;
	}
	double max_x = (double)width / state->scale;
	double max_y = (double)height / state->scale;
	const struct wlr_fbox *src = &state->viewport.src;
	if (src->x + src->width > max_x || src->y + src->height > max_y) {
		wl_resource_post_error(checked->viewport,
				WP_VIEWPORT_ERROR_OUT_OF_BUFFER,
				"source rectangle out of the buffer's %gx%g", max_x, max_y);
	}
}

/*
 * A committed shm buffer is read where it ends, under wl_shm's access
 * guard: a pool truncated under it faults there, and libwayland turns the
 * fault into wl_shm.invalid_fd on the buffer (wl_shm_buffer_end_access).
 */
static void check_shm_buffer(struct wlr_surface *surface) {
	if (!(surface->current.committed & WLR_SURFACE_STATE_BUFFER) ||
			surface->buffer == NULL || surface->buffer->source == NULL) {
		return;
	}
	struct wlr_buffer *buffer = surface->buffer->source;
	void *data;
	uint32_t format;
	size_t stride;
	if (buffer->height <= 0 ||
			!wlr_buffer_begin_data_ptr_access(buffer,
					WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return;
	}
	const volatile unsigned char *last = (const unsigned char *)data +
			stride * (size_t)(buffer->height - 1) + stride - 1;
	(void)*last;
	wlr_buffer_end_data_ptr_access(buffer);
}

static void handle_surface_commit(struct wl_listener *listener, void *data) {
	struct fw_checked_surface *checked =
			wl_container_of(listener, checked, commit);
	check_shm_buffer(checked->surface);
	check_viewport_source(checked);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_protocol_checks *checks =
			wl_container_of(listener, checks, new_surface);
	struct wlr_surface *surface = data;
	struct fw_checked_surface *checked = calloc(1, sizeof(*checked));
	if (checked == NULL) {
		wl_resource_post_no_memory(surface->resource);
		return;
	}
	checked->checks = checks;
	checked->surface = surface;
	wlr_addon_init(
			&checked->addon, &surface->addons, checks, &checked_surface_impl);
	fw_listener_connect(
			&checked->commit, &surface->events.commit, handle_surface_commit);
}

static void handle_resource_created(struct wl_listener *listener, void *data) {
	struct fw_checked_client *client =
			wl_container_of(listener, client, resource_created);
	struct fw_protocol_checks *checks = client->checks;
	struct wl_resource *resource = data;
	if (checks->viewport_surface == NULL ||
			strcmp(wl_resource_get_class(resource), "wp_viewport") != 0) {
		return;
	}
	struct fw_checked_surface *checked =
			checked_surface(checks, checks->viewport_surface);
	checks->viewport_surface = NULL;
	if (checked == NULL) {
		return;
	}
	checked->viewport = resource;
	checked->viewport_destroy.notify = handle_viewport_destroy;
	wl_resource_add_destroy_listener(resource, &checked->viewport_destroy);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_checked_client *client =
			wl_container_of(listener, client, destroy);
	fw_listener_disconnect(&client->resource_created);
	fw_listener_disconnect(&client->destroy);
	free(client);
}

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct fw_protocol_checks *checks =
			wl_container_of(listener, checks, client_created);
	struct wl_client *wl_client = data;
	struct fw_checked_client *client = calloc(1, sizeof(*client));
	if (client == NULL) {
		return;
	}
	client->checks = checks;
	client->resource_created.notify = handle_resource_created;
	wl_client_add_resource_created_listener(
			wl_client, &client->resource_created);
	client->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(wl_client, &client->destroy);
}

struct fw_protocol_checks *fw_protocol_checks_create(struct fw_server *server) {
	struct fw_protocol_checks *checks = calloc(1, sizeof(*checks));
	if (checks == NULL) {
		return NULL;
	}
	checks->server = server;
	wl_list_init(&checks->decorations);
	checks->logger = wl_display_add_protocol_logger(
			server->display, handle_request, checks);
	if (checks->logger == NULL) {
		free(checks);
		return NULL;
	}
	fw_listener_connect(&checks->new_surface,
			&server->compositor->events.new_surface, handle_new_surface);
	checks->client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(
			server->display, &checks->client_created);
	return checks;
}

void fw_protocol_checks_destroy(struct fw_protocol_checks *checks) {
	if (checks == NULL) {
		return;
	}
	wl_protocol_logger_destroy(checks->logger);
	fw_listener_disconnect(&checks->new_surface);
	fw_listener_disconnect(&checks->client_created);
	struct fw_decoration_origin *origin, *tmp;
	wl_list_for_each_safe(origin, tmp, &checks->decorations, link) {
		origin_destroy(origin);
	}
	free(checks);
}
