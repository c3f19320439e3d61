#include "compositor/listener.h"
#include "compositor/sched/client.h"
#include "compositor/sched/ratings_internal.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "scheduler/gate.h"
#include <stdlib.h>
#include <unistd.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/xwayland.h>

/*
 * Which process a client is, for the ratings: a Wayland client's own, as
 * fw_client_identify names it; an X window's, as Xwayland reports it; and
 * Xwayland's, which works for its X clients.
 */

struct fw_rated_xsurface {
	struct fw_ratings *ratings;
	struct wlr_xwayland_surface *xsurface;
	struct fw_rated *rated; /* referenced once its pid is known */
	struct wl_listener destroy;
	struct wl_list link; /* fw_ratings.xsurfaces */
};

struct fw_client *fw_ratings_owner_client(
		struct fw_ratings *ratings, struct wl_client *wl_client) {
	struct fw_client *client = fw_client_get(wl_client);
	if (client == NULL || client->rated_set) {
		return client;
	}
	if (!fw_client_identify(client)) {
		return NULL;
	}
	pid_t pid = client->process.pid;
	if (pid > 0 && pid != getpid()) {
		client->rated = fw_ratings_process_get(
				ratings, pid, fw_client_dup_pidfd(client), client->uid);
		if (client->rated != NULL && client->xwayland) {
			/* wlroots' window manager blocks fairway on Xwayland. */
			client->rated->never_idle = true;
		}
	}
	struct gate *gate = fw_sched_get_gate(ratings->server->sched);
	struct gate_connection *conn =
			gate != NULL ? gate_connection_from_client(wl_client) : NULL;
	if (conn != NULL) {
		client->service_ns = gate_connection_service_ns(conn);
	}
	client->rated_set = true;
	return client;
}

/* Its process is no longer rated for it. */
static void forget_client(struct fw_client *client) {
	fw_ratings_process_unref(client->rated);
	client->rated = NULL;
	client->rated_set = false;
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	forget_client(data);
}

/*
 * The X client behind an X window, once its pid is known: wlroots 0.15
 * asks Xwayland through the X-Resource extension (XResQueryClientIds),
 * where Xwayland reports the pid its X socket's peer had. No uid is known
 * for it, but its uids must agree (no setuid program).
 */
static struct fw_rated *xsurface_rated(struct fw_rated_xsurface *xs) {
	struct fw_ratings *ratings = xs->ratings;
	struct fw_client *xwayland = ratings->clients->xwayland;
	pid_t pid = xs->xsurface->pid;
	if (xs->rated != NULL || xwayland == NULL || pid <= 0 || pid == getpid()) {
		return xs->rated;
	}
	fw_client_identify(xwayland);
	if (pid == xwayland->process.pid) {
		return NULL;
	}
	struct fw_client *parent =
			fw_ratings_owner_client(ratings, xwayland->wl_client);
	if (parent == NULL) {
		/* Xwayland's own process is not known yet: later. */
		return NULL;
	}
	xs->rated = fw_ratings_process_get(ratings, pid, -1, HINTS_ANY_UID);
	if (xs->rated != NULL && xs->rated->xwayland == NULL &&
			parent->rated != NULL) {
		xs->rated->xwayland = parent->rated;
		parent->rated->refs++;
	}
	return xs->rated;
}

struct fw_rated *fw_ratings_owner_surface(
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
	struct fw_client *client = fw_ratings_owner_client(
			ratings, wl_resource_get_client(surface->resource));
	return client != NULL ? client->rated : NULL;
}

static void xsurface_destroy(struct fw_rated_xsurface *xs) {
	wl_list_remove(&xs->destroy.link);
	wl_list_remove(&xs->link);
	fw_ratings_process_unref(xs->rated);
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

void fw_ratings_owner_init(struct fw_ratings *ratings) {
	fw_listener_connect(&ratings->client_destroy,
			&ratings->clients->events.destroy, handle_client_destroy);
	struct wlr_xwayland *xwayland = ratings->server->xwayland;
	if (xwayland != NULL) {
		fw_listener_connect(&ratings->new_xsurface,
				&xwayland->events.new_surface, handle_new_xsurface);
	}
}

void fw_ratings_owner_finish(struct fw_ratings *ratings) {
	fw_listener_disconnect(&ratings->new_xsurface);
	struct fw_rated_xsurface *xs, *xs_tmp;
	wl_list_for_each_safe(xs, xs_tmp, &ratings->xsurfaces, link) {
		xsurface_destroy(xs);
	}
	fw_listener_disconnect(&ratings->client_destroy);
	struct fw_client *client;
	wl_list_for_each(client, &ratings->clients->clients, link) {
		forget_client(client);
	}
}
