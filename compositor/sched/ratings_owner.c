#include "compositor/listener.h"
#include "compositor/sched/ratings_internal.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include "compositor/shell/xwayland.h"
#include "scheduler/gate.h"
#include <stdlib.h>
#include <unistd.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/xwayland.h>

/*
 * Which process a client is, for the ratings: a Wayland client's own, as
 * fw_client_process names it; an X window's, as Xwayland reports it; and
 * Xwayland's, which works for its X clients.
 */

struct fw_rated_xsurface {
	struct fw_ratings *ratings;
	struct wlr_xwayland_surface *xsurface;
	struct fw_rated *rated; /* referenced once its pid is known */
	struct wl_listener destroy;
	struct wl_list link; /* fw_ratings.xsurfaces */
};

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_rated_client *rc = wl_container_of(listener, rc, destroy);
	wl_list_remove(&rc->destroy.link);
	fw_rated_unref(rc->rated);
	free(rc);
}

struct fw_rated_client *fw_rated_client_get(
		struct fw_ratings *ratings, struct wl_client *client) {
	struct wl_listener *listener =
			wl_client_get_destroy_listener(client, handle_client_destroy);
	if (listener != NULL) {
		struct fw_rated_client *rc = wl_container_of(listener, rc, destroy);
		return rc;
	}
	struct fw_server *server = ratings->server;
	pid_t pid;
	uid_t uid;
	int pidfd;
	if (!fw_client_process(server, client, &pid, &uid, &pidfd)) {
		return NULL;
	}
	struct fw_rated_client *rc = calloc(1, sizeof(*rc));
	if (rc == NULL) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	if (pid > 0 && pid != getpid()) {
		rc->rated = fw_rated_get(ratings, pid, pidfd, uid);
		if (rc->rated != NULL && client == fw_xwayland_client(server)) {
			/* wlroots' window manager blocks fairway on Xwayland. */
			rc->rated->never_idle = true;
		}
	} else if (pidfd >= 0) {
		close(pidfd);
	}
	struct gate *gate = fw_sched_get_gate(server->sched);
	struct gate_connection *conn =
			gate != NULL ? gate_connection_from_client(client) : NULL;
	if (conn != NULL) {
		rc->service_ns = gate_connection_service_ns(conn);
	}
	rc->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(client, &rc->destroy);
	return rc;
}

/*
 * The X client behind an X window, once its pid is known: wlroots 0.15
 * asks Xwayland through the X-Resource extension (XResQueryClientIds),
 * where Xwayland reports the pid its X socket's peer had. No uid is known
 * for it, but its uids must agree (no setuid program).
 */
static struct fw_rated *xsurface_rated(struct fw_rated_xsurface *xs) {
	struct fw_ratings *ratings = xs->ratings;
	struct wl_client *client = fw_xwayland_client(ratings->server);
	pid_t pid = xs->xsurface->pid;
	if (xs->rated != NULL || client == NULL || pid <= 0 || pid == getpid()) {
		return xs->rated;
	}
	pid_t xwayland_pid = 0;
	fw_client_process(ratings->server, client, &xwayland_pid, NULL, NULL);
	if (pid == xwayland_pid) {
		return NULL;
	}
	struct fw_rated_client *parent = fw_rated_client_get(ratings, client);
	if (parent == NULL) {
		/* Xwayland's own process is not known yet: later. */
		return NULL;
	}
	xs->rated = fw_rated_get(ratings, pid, -1, HINTS_ANY_UID);
	if (xs->rated != NULL && xs->rated->xwayland == NULL &&
			parent->rated != NULL) {
		xs->rated->xwayland = parent->rated;
		parent->rated->refs++;
	}
	return xs->rated;
}

struct fw_rated *fw_rated_surface_owner(
		struct fw_ratings *ratings, struct wlr_surface *surface) {
	if (surface->resource == NULL) {
		return NULL;
	}
	if (wlr_surface_is_xwayland_surface(surface)) {
		struct wlr_xwayland_surface *xsurface =
				wlr_xwayland_surface_from_wlr_surface(surface);
		struct fw_rated_xsurface *xs;
		wl_list_for_each(xs, &ratings->xsurfaces, link) {
			if (xs->xsurface == xsurface && xsurface_rated(xs) != NULL) {
				return xs->rated;
			}
		}
	}
	struct fw_rated_client *rc = fw_rated_client_get(
			ratings, wl_resource_get_client(surface->resource));
	return rc != NULL ? rc->rated : NULL;
}

static void xsurface_destroy(struct fw_rated_xsurface *xs) {
	wl_list_remove(&xs->destroy.link);
	wl_list_remove(&xs->link);
	fw_rated_unref(xs->rated);
	free(xs);
}

static void handle_xsurface_destroy(struct wl_listener *listener, void *data) {
	struct fw_rated_xsurface *xs = wl_container_of(listener, xs, destroy);
	xsurface_destroy(xs);
}

static void handle_new_xsurface(struct wl_listener *listener, void *data) {
	struct fw_ratings *ratings =
			wl_container_of(listener, ratings, new_xsurface);
	struct fw_rated_xsurface *xs = calloc(1, sizeof(*xs));
	if (xs == NULL) {
		return;
	}
	xs->ratings = ratings;
	xs->xsurface = data;
	fw_listener_connect(&xs->destroy, &xs->xsurface->events.destroy,
			handle_xsurface_destroy);
	wl_list_insert(&ratings->xsurfaces, &xs->link);
}

void fw_rated_xsurfaces_init(struct fw_ratings *ratings) {
	struct wlr_xwayland *xwayland = ratings->server->xwayland;
	if (xwayland != NULL) {
		fw_listener_connect(&ratings->new_xsurface,
				&xwayland->events.new_surface, handle_new_xsurface);
	}
}

void fw_rated_clients_finish(struct fw_ratings *ratings) {
	fw_listener_disconnect(&ratings->new_xsurface);
	struct fw_rated_xsurface *xs, *xs_tmp;
	wl_list_for_each_safe(xs, xs_tmp, &ratings->xsurfaces, link) {
		xsurface_destroy(xs);
	}
	struct wl_client *client;
	wl_client_for_each(
			client, wl_display_get_client_list(ratings->server->display)) {
		struct wl_listener *listener =
				wl_client_get_destroy_listener(client, handle_client_destroy);
		if (listener != NULL) {
			handle_client_destroy(listener, client);
		}
	}
}
