#include "compositor/listener.h"
#include "compositor/sched/client.h"
#include "compositor/sched/ratings_internal.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "scheduler/gate/gate.h"
#include "scheduler/process/peer.h"
#include <stdlib.h>
#include <unistd.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>

/*
 * Which process a client is, for the ratings: a Wayland client's own, as
 * fw_client_identify names it; an X window's, as Xwayland reports it; and
 * Xwayland's, which works for its X clients.
 */

struct fw_rated_xsurface {
	struct fw_ratings *ratings;
	struct wlr_xwayland_surface *xsurface;
	/*
	 * Its X client's process, pinned as the window came (wlroots knows its
	 * pid by then) and never looked up by that pid again; not pinned if it
	 * could not be proven an X client of Xwayland's (peer_pin_x_client).
	 */
	struct peer peer;
	bool pin_tried;
	struct fw_rated *rated; /* referenced once its process is pinned */
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
 * Xwayland's process as a pinned peer: as the gate pinned it, or with
 * --scheduler off the process wlroots started (fairway's child, whose pid
 * no one else can have while its connection is up). False while it is
 * not known yet.
 */
static bool xwayland_peer(struct fw_ratings *ratings, struct peer *peer) {
	peer_init(peer);
	struct fw_client *xwayland = ratings->clients->xwayland;
	if (xwayland == NULL) {
		return false;
	}
	if (fw_client_identify(xwayland) && xwayland->process.pid > 0) {
		return peer_pin_pid(peer, xwayland->process.pid, xwayland->uid,
				fw_client_dup_pidfd(xwayland), peer_now_ticks());
	}
	struct wlr_xwayland *wlr_xwayland = ratings->server->xwayland;
	if (fw_sched_get_gate(ratings->server->sched) == NULL &&
			wlr_xwayland != NULL && wlr_xwayland->server != NULL &&
			wlr_xwayland->server->pid > 0) {
		return peer_pin_pid(peer, wlr_xwayland->server->pid, geteuid(), -1,
				peer_now_ticks());
	}
	return false;
}

/*
 * Pins the X client behind an X window as soon as its pid is known:
 * wlroots asks Xwayland through the X-Resource extension when it learns
 * of the window, before it announces it, and Xwayland reports the pid its
 * X socket's peer had when it connected. That process may be gone by now
 * and its pid another's, so the process that has it must prove itself a
 * client of Xwayland's, running as Xwayland's uid (peer_pin_x_client),
 * and from then on its pidfd names it.
 */
static void pin_x_client(struct fw_rated_xsurface *xs) {
	pid_t pid = xs->xsurface->pid;
	if (xs->pin_tried || pid <= 0) {
		return;
	}
	xs->pin_tried = true;
	struct peer xwayland;
	if (!xwayland_peer(xs->ratings, &xwayland)) {
		wlr_log(WLR_INFO,
				"X client pid %d not pinned: Xwayland's own process is "
				"not known",
				(int)pid);
		return;
	}
	if (pid != xwayland.pid) {
		peer_pin_x_client(&xs->peer, pid, &xwayland);
	}
	peer_finish(&xwayland);
}

/* The rated process of an X window: its pinned X client's. */
static struct fw_rated *xsurface_rated(struct fw_rated_xsurface *xs) {
	struct fw_ratings *ratings = xs->ratings;
	pin_x_client(xs);
	if (xs->rated != NULL || xs->peer.pid <= 0) {
		return xs->rated;
	}
	struct fw_client *xwayland = ratings->clients->xwayland;
	struct fw_client *parent = xwayland != NULL
			? fw_ratings_owner_client(ratings, xwayland->wl_client)
			: NULL;
	if (parent == NULL) {
		/* Xwayland's own record is not made yet: later. */
		return NULL;
	}
	xs->rated = fw_ratings_process_get(
			ratings, xs->peer.pid, peer_dup_pidfd(&xs->peer), xs->peer.uid);
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
	struct wlr_xwayland_surface *xsurface =
			wlr_xwayland_surface_try_from_wlr_surface(surface);
	if (xsurface != NULL) {
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
	fw_listener_disconnect(&xs->destroy);
	wl_list_remove(&xs->link);
	fw_ratings_process_unref(xs->rated);
	peer_finish(&xs->peer);
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
	peer_init(&xs->peer);
	fw_listener_connect(&xs->destroy, &xs->xsurface->events.destroy,
			handle_xsurface_destroy);
	wl_list_insert(&ratings->xsurfaces, &xs->link);
	pin_x_client(xs);
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
