/*
 * Protocol errors wlroots 0.18 does not raise, or raises with another code
 * or on another object than the protocol names, raised here: each check
 * names the wlroots function that lets the request through. A request is
 * looked at before libwayland dispatches it (a protocol logger sees it
 * first); the error is posted on the object the protocol names, and
 * libwayland disconnects the client right after that request, so the
 * request itself then runs against a client that is already gone and
 * changes nothing anyone will see. wlroots' own error on the same request
 * comes second, and libwayland sends only the first.
 *
 * Buffers are checked where they are committed: a shm buffer whose pool
 * was truncated under it is refused then, before any frame done reaches
 * its client, and before anything reads it.
 */
#include "compositor/shell/protocol_checks.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include "scheduler/sched_clock.h"
#include "xdg-decoration-unstable-v1-protocol.h"
#include "xdg-shell-protocol.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	struct wl_listener new_surface;
	/* Which decoration manager made each decoration (orphaned's target). */
	struct wl_list decorations; /* fw_decoration_origin.link */
};

/*
 * The wl_buffer a surface has attached since its last commit: wlroots
 * keeps it out of the surface's public state until the commit.
 */
struct fw_checked_surface {
	struct wlr_addon addon;
	struct wlr_surface *surface;
	struct wl_resource *attached; /* NULL: none, or attach(NULL) */
	struct wl_listener attached_destroy;
	struct wl_listener client_commit;
	/* The size of the pool this surface's buffers came from, when it was
	 * last read (check_shm_buffer); fd -1: none. */
	int pool_fd;
	off_t pool_size;
	int64_t pool_checked_ns;
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

static void forget_attached(struct fw_checked_surface *checked) {
	fw_listener_disconnect(&checked->attached_destroy);
	checked->attached = NULL;
}

static void handle_attached_destroy(struct wl_listener *listener, void *data) {
	struct fw_checked_surface *checked =
			wl_container_of(listener, checked, attached_destroy);
	forget_attached(checked);
}

static bool has_buffer(
		struct fw_protocol_checks *checks, struct wlr_surface *surface) {
	struct fw_checked_surface *checked = checked_surface(checks, surface);
	return wlr_surface_has_buffer(surface) ||
			(checked != NULL && checked->attached != NULL);
}

/*
 * A role wlr_surface_set_role refuses an xdg_surface, with the role error
 * on the xdg_wm_base as the protocol has it: another role, or an
 * xdg_surface that still exists. One made and destroyed leaves the role.
 */
static bool role_refused(struct wlr_surface *surface) {
	return surface->role_resource != NULL ||
			(surface->role != NULL &&
					strcmp(surface->role->name, "xdg_surface") != 0);
}

/*
 * wlroots' create_xdg_surface checks only for a committed buffer, and
 * raises xdg_surface's unconfigured_buffer code on the xdg_wm_base, where
 * that code means invalid_popup_parent; a buffer attached and not yet
 * committed passes.
 */
static void check_get_xdg_surface(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	struct wl_resource *surface_resource = object_arg(message, 1);
	if (surface_resource == NULL) {
		return;
	}
	struct wlr_surface *surface = wlr_surface_from_resource(surface_resource);
	if (!role_refused(surface) && has_buffer(checks, surface)) {
		wl_resource_post_error(message->resource,
				XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
				"wl_surface@%u has a buffer attached",
				wl_resource_get_id(surface_resource));
	}
}

/*
 * wlroots' xdg_surface_role_client_commit refuses an unconfigured
 * xdg_surface's buffer only at commit.
 */
static void check_attach(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	struct wlr_surface *surface = wlr_surface_from_resource(message->resource);
	struct wl_resource *buffer = object_arg(message, 0);
	struct fw_checked_surface *checked = checked_surface(checks, surface);
	if (checked != NULL) {
		forget_attached(checked);
		if (buffer != NULL) {
			checked->attached = buffer;
			checked->attached_destroy.notify = handle_attached_destroy;
			wl_resource_add_destroy_listener(
					buffer, &checked->attached_destroy);
		}
	}
	if (buffer == NULL) {
		return;
	}
	struct wlr_xdg_surface *xdg_surface =
			wlr_xdg_surface_try_from_wlr_surface(surface);
	if (xdg_surface != NULL && !xdg_surface->configured &&
			wl_list_empty(&xdg_surface->configure_list)) {
		wl_resource_post_error(xdg_surface->resource,
				XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
				"a buffer attached before the first configure");
	}
}

static struct wlr_xdg_toplevel_decoration_v1 *decoration_of(
		struct fw_server *server, struct wlr_xdg_toplevel *toplevel) {
	struct wlr_xdg_toplevel_decoration_v1 *decoration;
	wl_list_for_each(decoration, &server->xdg_decoration->decorations, link) {
		if (decoration->toplevel == toplevel) {
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

/*
 * Remembers which manager a decoration was asked of, for
 * check_toplevel_destroy. A second decoration for a toplevel is refused by
 * wlroots' decoration_manager_handle_get_toplevel_decoration itself.
 */
static void note_get_decoration(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	struct wl_resource *toplevel_resource = object_arg(message, 1);
	if (toplevel_resource == NULL || checks->server->xdg_decoration == NULL) {
		return;
	}
	struct wlr_xdg_toplevel *toplevel =
			wlr_xdg_toplevel_from_resource(toplevel_resource);
	if (toplevel == NULL || decoration_of(checks->server, toplevel) != NULL) {
		return;
	}
	struct fw_decoration_origin *origin = calloc(1, sizeof(*origin));
	if (origin == NULL) {
		return;
	}
	origin->toplevel = toplevel_resource;
	origin->manager = message->resource;
	origin->toplevel_destroy.notify = handle_origin_toplevel_destroy;
	wl_resource_add_destroy_listener(
			toplevel_resource, &origin->toplevel_destroy);
	origin->manager_destroy.notify = handle_origin_manager_destroy;
	wl_resource_add_destroy_listener(
			message->resource, &origin->manager_destroy);
	wl_list_insert(&checks->decorations, &origin->link);
}

/*
 * wlroots' toplevel_decoration_handle_toplevel_destroy raises orphaned on
 * the decoration; wlcs expects it on the manager the decoration was asked
 * of, while that manager is there.
 */
static void check_toplevel_destroy(struct fw_protocol_checks *checks,
		const struct wl_protocol_logger_message *message) {
	if (checks->server->xdg_decoration == NULL) {
		return;
	}
	struct wlr_xdg_toplevel *toplevel =
			wlr_xdg_toplevel_from_resource(message->resource);
	struct wlr_xdg_toplevel_decoration_v1 *decoration =
			toplevel != NULL ? decoration_of(checks->server, toplevel) : NULL;
	if (decoration == NULL) {
		return;
	}
	struct wl_resource *target = decoration->resource;
	struct fw_decoration_origin *origin;
	wl_list_for_each(origin, &checks->decorations, link) {
		if (origin->toplevel == message->resource && origin->manager != NULL) {
			target = origin->manager;
			break;
		}
	}
	wl_resource_post_error(target, ZXDG_TOPLEVEL_DECORATION_V1_ERROR_ORPHANED,
			"xdg_toplevel@%u destroyed before its decoration",
			wl_resource_get_id(message->resource));
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
		note_get_decoration(checks, message);
	} else if (is(message, "xdg_toplevel", "destroy")) {
		check_toplevel_destroy(checks, message);
	}
}

/*
 * A buffer that ends past its pool's file is refused at its commit with
 * wl_shm.invalid_fd on the buffer. A read of it would fault and be caught
 * too (output/shm.h, output/shm_guard.h), but only at the next paint of
 * its damage, after its frame done, and never while it is hidden; the
 * commit is where the client learns which buffer, and by how much. A
 * pool's size is read at most once a millisecond for each surface: a
 * client that commits thousands of times a second pays for the system
 * call once a millisecond, not at each commit. A pool truncated within
 * that millisecond is caught by the guards when it is read.
 */
#define POOL_CHECK_NS (SCHED_NS_PER_MS)

static void check_shm_buffer(struct fw_checked_surface *checked) {
	struct wlr_surface *surface = checked->surface;
	struct wl_resource *resource = checked->attached;
	struct wlr_buffer *buffer = surface->pending.buffer;
	struct wlr_shm_attributes shm;
	if (!(surface->pending.committed & WLR_SURFACE_STATE_BUFFER) ||
			resource == NULL || buffer == NULL ||
			!wlr_buffer_get_shm(buffer, &shm) || shm.height <= 0) {
		return;
	}
	off_t end = shm.offset + (off_t)shm.stride * shm.height;
	int64_t now = sched_clock_now_ns();
	/* A refusal is always made on a size read now: the fd may be a new
	 * pool's under an old number, and a pool may have grown. */
	if (shm.fd != checked->pool_fd || end > checked->pool_size ||
			now - checked->pool_checked_ns >= POOL_CHECK_NS) {
		struct stat st;
		if (fstat(shm.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			checked->pool_fd = -1;
			return;
		}
		checked->pool_fd = shm.fd;
		checked->pool_size = st.st_size;
		checked->pool_checked_ns = now;
	}
	if (end > checked->pool_size) {
		wlr_surface_reject_pending(surface, resource, WL_SHM_ERROR_INVALID_FD,
				"the buffer ends at byte %jd of a %jd-byte pool", (intmax_t)end,
				(intmax_t)checked->pool_size);
	}
}

static void handle_client_commit(struct wl_listener *listener, void *data) {
	struct fw_checked_surface *checked =
			wl_container_of(listener, checked, client_commit);
	check_shm_buffer(checked);
	/* The commit takes what was attached. */
	forget_attached(checked);
}

static void checked_surface_destroy(struct fw_checked_surface *checked) {
	fw_listener_disconnect(&checked->attached_destroy);
	fw_listener_disconnect(&checked->client_commit);
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

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_protocol_checks *checks =
			wl_container_of(listener, checks, new_surface);
	struct wlr_surface *surface = data;
	struct fw_checked_surface *checked = calloc(1, sizeof(*checked));
	if (checked == NULL) {
		wl_resource_post_no_memory(surface->resource);
		return;
	}
	checked->surface = surface;
	checked->pool_fd = -1;
	wlr_addon_init(
			&checked->addon, &surface->addons, checks, &checked_surface_impl);
	fw_listener_connect(&checked->client_commit, &surface->events.client_commit,
			handle_client_commit);
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
	return checks;
}

void fw_protocol_checks_destroy(struct fw_protocol_checks *checks) {
	if (checks == NULL) {
		return;
	}
	wl_protocol_logger_destroy(checks->logger);
	fw_listener_disconnect(&checks->new_surface);
	struct fw_decoration_origin *origin, *tmp;
	wl_list_for_each_safe(origin, tmp, &checks->decorations, link) {
		origin_destroy(origin);
	}
	free(checks);
}
