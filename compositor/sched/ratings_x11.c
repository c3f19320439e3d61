#include "compositor/sched/ratings_x11.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include "scheduler/sched_clock.h"
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>
#include <xcb/damage.h>
#include <xcb/xcb.h>

/*
 * What one "frame drawn" is. DAMAGE can report every drawing request's
 * rectangle (RawRectangles), each growth of the damaged region
 * (DeltaRectangles, BoundingBox), or only that a damage object went from
 * empty to not empty (NonEmpty). The first three count drawing requests,
 * not frames: an X client draws a frame with tens or hundreds of them (a
 * line of text, a polygon each), so a paced 60 fps animation would count
 * thousands a second and look like waste. NonEmpty, re-armed with
 * DamageSubtract(None, None) after each notify, counts bursts: the X
 * server runs a client's queued requests together, so a client that
 * flushes a frame and then waits (for a timer, for XSync) damages its
 * window once per frame, and what it draws until the re-arm adds to the
 * same notify. A client that never stops drawing damages the window
 * again as soon as each re-arm is done, once per turn the server takes
 * between it and fairway; that is several times the refresh rate, so it
 * comes out past its knee, and far past it when it floods.
 *
 * The re-arm waits REARM_NS after the notify. A frame drawn in a few
 * flushes (Xlib flushes a full buffer on its own, toolkits sync halfway)
 * is then one frame, not one per flush; and a flooder is counted at
 * most 500 times a second per window, two wakeups of fairway's main
 * thread each, where it could be thousands (bench/README.md has what
 * that costs). 500 a second is still 4 frames a presented one, the
 * knee's waste, on a display of up to 125 Hz, and past the knee up to
 * 333 Hz.
 *
 * The connection is made off the main thread: xcb_connect and the
 * extension's version query wait for Xwayland, which may be waiting on
 * fairway. From then on the main thread only queues requests, flushes
 * them and reads what has come (xcb_poll_for_event). The requests never
 * fill the socket, so a flush never waits either: each damage object has
 * at most one notify unanswered, and each notify is answered with one
 * small request.
 */
#define LEVEL XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY
#define REARM_NS (2 * SCHED_NS_PER_MS)
/*
 * Damage ids given back, for the next windows: xcb_generate_id asks the
 * X server for more ids, and waits for its answer, once a connection has
 * used up its range, which a session that maps menus for long enough
 * would. Taken again in order after their DamageDestroy, they are free.
 */
#define SPARE_IDS 64

/* The connection being made, shared by the main thread and its own. */
struct xconnect {
	pthread_mutex_t lock;
	char display[32];
	int done_fd; /* eventfd: the thread is done */
	bool done, abandoned; /* abandoned: the thread frees it */
	xcb_connection_t *conn; /* on success, until taken */
	uint8_t first_event;
	const char *error; /* on failure: why */
};

struct fw_ratings_x11_window {
	struct fw_ratings_x11 *xdamage;
	struct wlr_xwayland_surface *xsurface;
	xcb_damage_damage_t damage; /* XCB_NONE: not followed */
	int64_t rearm_ns; /* when its damage is re-armed; 0: armed */
	struct wl_listener associate;
	struct wl_listener dissociate;
	/* On its surface, between associate and dissociate. */
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
	struct wl_list link; /* fw_ratings_x11.windows */
};

struct fw_ratings_x11 {
	struct fw_server *server;
	fw_ratings_x11_drawn_func drawn;
	void *data;
	struct xconnect *connecting; /* NULL: no connection under way */
	struct wl_event_source *connecting_source;
	xcb_connection_t *conn; /* NULL: none, nothing counted */
	struct wl_event_source *conn_source;
	struct wl_event_source *rearm_timer;
	uint8_t first_event;
	xcb_damage_damage_t spare[SPARE_IDS];
	int spares;
	bool logged; /* a failure was logged: the next ones only in debug */
	struct wl_list windows; /* fw_ratings_x11_window.link */
	struct wl_listener ready;
	struct wl_listener new_surface;
};

static void xconnect_free(struct xconnect *c) {
	if (c->conn != NULL) {
		xcb_disconnect(c->conn);
	}
	close(c->done_fd);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static void *run_xconnect(void *arg) {
	struct xconnect *c = arg;
	const char *error = NULL;
	uint8_t first_event = 0;
	xcb_connection_t *conn = xcb_connect(c->display, NULL);
	if (xcb_connection_has_error(conn)) {
		error = "cannot connect";
	} else {
		const xcb_query_extension_reply_t *ext =
				xcb_get_extension_data(conn, &xcb_damage_id);
		if (ext == NULL || !ext->present) {
			error = "the X server has no DAMAGE extension";
		} else {
			/* DAMAGE takes no other request before this one. */
			first_event = ext->first_event;
			xcb_damage_query_version_reply_t *version =
					xcb_damage_query_version_reply(conn,
							xcb_damage_query_version(conn,
									XCB_DAMAGE_MAJOR_VERSION,
									XCB_DAMAGE_MINOR_VERSION),
							NULL);
			if (version == NULL) {
				error = "DAMAGE did not answer its version";
			}
			free(version);
		}
	}
	if (error != NULL) {
		xcb_disconnect(conn);
		conn = NULL;
	}
	pthread_mutex_lock(&c->lock);
	c->done = true;
	c->conn = conn;
	c->first_event = first_event;
	c->error = error;
	bool abandoned = c->abandoned;
	if (!abandoned) {
		uint64_t one = 1;
		if (write(c->done_fd, &one, sizeof(one)) != sizeof(one)) {
			/* An eventfd takes a write unless it is near overflow. */
		}
	}
	pthread_mutex_unlock(&c->lock);
	/* Past this point only an abandoned connection is touched. */
	if (abandoned) {
		xconnect_free(c);
	}
	return NULL;
}

/* Gives c up: freed now if its thread is done, by the thread otherwise. */
static void xconnect_abandon(struct xconnect *c) {
	pthread_mutex_lock(&c->lock);
	bool done = c->done;
	c->abandoned = true;
	pthread_mutex_unlock(&c->lock);
	if (done) {
		xconnect_free(c);
	}
}

static void log_failure(struct fw_ratings_x11 *xdamage, const char *why) {
	enum wlr_log_importance level = xdamage->logged ? WLR_DEBUG : WLR_ERROR;
	wlr_log(level,
			"X drawing is not counted (%s): X clients' knee is "
			"Xwayland's commits",
			why);
	xdamage->logged = true;
}

static bool window_mapped(struct fw_ratings_x11_window *window) {
	struct wlr_surface *surface = window->xsurface->surface;
	return surface != NULL && surface->mapped;
}

static void window_follow(struct fw_ratings_x11_window *window) {
	xcb_connection_t *conn = window->xdamage->conn;
	if (conn == NULL || window->damage != XCB_NONE || !window_mapped(window)) {
		return;
	}
	struct fw_ratings_x11 *xdamage = window->xdamage;
	window->damage = xdamage->spares > 0 ? xdamage->spare[--xdamage->spares]
										 : xcb_generate_id(conn);
	xcb_damage_create(conn, window->damage, window->xsurface->window_id, LEVEL);
	xcb_flush(conn);
}

static void window_unfollow(struct fw_ratings_x11_window *window) {
	xcb_connection_t *conn = window->xdamage->conn;
	if (window->damage == XCB_NONE) {
		return;
	}
	if (conn != NULL) {
		/* Already gone with its window, maybe: the error is ignored. */
		xcb_damage_destroy(conn, window->damage);
		xcb_flush(conn);
		struct fw_ratings_x11 *xdamage = window->xdamage;
		if (xdamage->spares < SPARE_IDS) {
			xdamage->spare[xdamage->spares++] = window->damage;
		}
	}
	window->damage = XCB_NONE;
	window->rearm_ns = 0;
}

/* The connection broke: nothing is counted until Xwayland is back. */
static void lose_connection(struct fw_ratings_x11 *xdamage, const char *why) {
	wl_event_source_remove(xdamage->conn_source);
	xdamage->conn_source = NULL;
	xcb_disconnect(xdamage->conn);
	xdamage->conn = NULL;
	xdamage->spares = 0;
	struct fw_ratings_x11_window *window;
	wl_list_for_each(window, &xdamage->windows, link) {
		window->damage = XCB_NONE;
		window->rearm_ns = 0;
	}
	wl_event_source_timer_update(xdamage->rearm_timer, 0);
	log_failure(xdamage, why);
}

/* The timer for the earliest re-arm due, or none. */
static void schedule_rearm(struct fw_ratings_x11 *xdamage, int64_t now) {
	int64_t due = 0;
	struct fw_ratings_x11_window *window;
	wl_list_for_each(window, &xdamage->windows, link) {
		if (window->rearm_ns != 0 && (due == 0 || window->rearm_ns < due)) {
			due = window->rearm_ns;
		}
	}
	int ms = 0;
	if (due != 0) {
		int64_t left = due - now;
		ms = left > 0 ? (int)((left + SCHED_NS_PER_MS - 1) / SCHED_NS_PER_MS)
					  : 1;
	}
	wl_event_source_timer_update(xdamage->rearm_timer, ms);
}

static int handle_rearm(void *data) {
	struct fw_ratings_x11 *xdamage = data;
	int64_t now = sched_clock_now_ns();
	struct fw_ratings_x11_window *window;
	wl_list_for_each(window, &xdamage->windows, link) {
		if (window->rearm_ns != 0 && window->rearm_ns <= now) {
			window->rearm_ns = 0;
			if (xdamage->conn != NULL && window->damage != XCB_NONE) {
				/* The next drawing is the next frame. */
				xcb_damage_subtract(
						xdamage->conn, window->damage, XCB_NONE, XCB_NONE);
			}
		}
	}
	if (xdamage->conn != NULL) {
		xcb_flush(xdamage->conn);
	}
	schedule_rearm(xdamage, now);
	return 0;
}

static void handle_x_event(
		struct fw_ratings_x11 *xdamage, xcb_generic_event_t *event) {
	uint8_t type = event->response_type & 0x7f;
	struct fw_ratings_x11_window *window;
	if (type == 0) {
		/* A window that went before its damage object came or went. */
		xcb_generic_error_t *error = (xcb_generic_error_t *)event;
		wlr_log(WLR_DEBUG, "X error %u (request %u.%u) on 0x%x",
				(unsigned)error->error_code, (unsigned)error->major_code,
				(unsigned)error->minor_code, (unsigned)error->resource_id);
		wl_list_for_each(window, &xdamage->windows, link) {
			if (window->damage == error->resource_id ||
					window->xsurface->window_id == error->resource_id) {
				window->damage = XCB_NONE;
			}
		}
		return;
	}
	if (type != (uint8_t)(xdamage->first_event + XCB_DAMAGE_NOTIFY)) {
		return;
	}
	xcb_damage_notify_event_t *notify = (xcb_damage_notify_event_t *)event;
	wl_list_for_each(window, &xdamage->windows, link) {
		if (window->damage != XCB_NONE && window->damage == notify->damage) {
			int64_t now = sched_clock_now_ns();
			if (window->rearm_ns == 0) {
				window->rearm_ns = now + REARM_NS;
				schedule_rearm(xdamage, now);
			}
			xdamage->drawn(window->xsurface, xdamage->data);
			return;
		}
	}
}

static int handle_x_readable(int fd, uint32_t mask, void *data) {
	struct fw_ratings_x11 *xdamage = data;
	xcb_connection_t *conn = xdamage->conn;
	xcb_generic_event_t *event;
	while ((event = xcb_poll_for_event(conn)) != NULL) {
		handle_x_event(xdamage, event);
		free(event);
	}
	/* A flush can read too: what it read is not on the fd any more. */
	xcb_flush(conn);
	while ((event = xcb_poll_for_queued_event(conn)) != NULL) {
		handle_x_event(xdamage, event);
		free(event);
		xcb_flush(conn);
	}
	if (xcb_connection_has_error(conn) ||
			(mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR))) {
		lose_connection(xdamage, "the connection to Xwayland broke");
	}
	return 0;
}

static int handle_connected(int fd, uint32_t mask, void *data) {
	struct fw_ratings_x11 *xdamage = data;
	struct xconnect *c = xdamage->connecting;
	wl_event_source_remove(xdamage->connecting_source);
	xdamage->connecting_source = NULL;
	xdamage->connecting = NULL;
	/* The thread wrote done_fd last, under the lock: it is done. */
	pthread_mutex_lock(&c->lock);
	xcb_connection_t *conn = c->conn;
	c->conn = NULL;
	uint8_t first_event = c->first_event;
	const char *error = c->error;
	pthread_mutex_unlock(&c->lock);
	xconnect_free(c);
	if (conn == NULL) {
		log_failure(xdamage, error != NULL ? error : "no connection");
		return 0;
	}
	xdamage->conn_source = wl_event_loop_add_fd(xdamage->server->loop,
			xcb_get_file_descriptor(conn), WL_EVENT_READABLE, handle_x_readable,
			xdamage);
	if (xdamage->conn_source == NULL) {
		xcb_disconnect(conn);
		log_failure(xdamage, "cannot watch the connection");
		return 0;
	}
	xdamage->conn = conn;
	xdamage->first_event = first_event;
	wlr_log(WLR_DEBUG, "Counting X drawing on %s through DAMAGE",
			xdamage->server->xwayland->display_name);
	struct fw_ratings_x11_window *window;
	wl_list_for_each(window, &xdamage->windows, link) {
		window_follow(window);
	}
	return 0;
}

static void start_connecting(struct fw_ratings_x11 *xdamage) {
	const char *display = xdamage->server->xwayland->display_name;
	struct xconnect *c = calloc(1, sizeof(*c));
	if (c == NULL) {
		log_failure(xdamage, "out of memory");
		return;
	}
	if (snprintf(c->display, sizeof(c->display), "%s", display) >=
			(int)sizeof(c->display)) {
		free(c);
		log_failure(xdamage, "display name too long");
		return;
	}
	c->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->done_fd < 0) {
		free(c);
		log_failure(xdamage, "no eventfd");
		return;
	}
	pthread_mutex_init(&c->lock, NULL);
	xdamage->connecting_source = wl_event_loop_add_fd(xdamage->server->loop,
			c->done_fd, WL_EVENT_READABLE, handle_connected, xdamage);
	if (xdamage->connecting_source == NULL) {
		goto error_free;
	}
	/*
	 * Signals stay with the main thread (wl_event_loop_add_signal): the
	 * thread blocks them all, and a SIGTERM cannot end fairway through it.
	 */
	pthread_attr_t attr;
	if (pthread_attr_init(&attr) != 0) {
		goto error_source;
	}
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_t thread;
	int ret = pthread_create(&thread, &attr, run_xconnect, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (ret != 0) {
		goto error_source;
	}
	xdamage->connecting = c;
	return;

error_source:
	wl_event_source_remove(xdamage->connecting_source);
	xdamage->connecting_source = NULL;
error_free:
	xconnect_free(c);
	log_failure(xdamage, "cannot start connecting");
}

/* Xwayland is up, maybe again: a connection to it, once. */
static void handle_ready(struct wl_listener *listener, void *data) {
	struct fw_ratings_x11 *xdamage = wl_container_of(listener, xdamage, ready);
	if (xdamage->conn != NULL) {
		/* To an Xwayland that went: it will not answer. */
		lose_connection(xdamage, "Xwayland started again");
	}
	if (xdamage->connecting == NULL) {
		start_connecting(xdamage);
	}
}

static void handle_window_map(struct wl_listener *listener, void *data) {
	struct fw_ratings_x11_window *window =
			wl_container_of(listener, window, map);
	window_follow(window);
}

static void handle_window_unmap(struct wl_listener *listener, void *data) {
	struct fw_ratings_x11_window *window =
			wl_container_of(listener, window, unmap);
	window_unfollow(window);
}

/* The window has a surface now: its map and unmap are the surface's. */
static void handle_window_associate(struct wl_listener *listener, void *data) {
	struct fw_ratings_x11_window *window =
			wl_container_of(listener, window, associate);
	struct wlr_surface *surface = window->xsurface->surface;
	fw_listener_connect(&window->map, &surface->events.map, handle_window_map);
	fw_listener_connect(
			&window->unmap, &surface->events.unmap, handle_window_unmap);
	window_follow(window);
}

/* wlroots unmaps the surface first; the surface may be going too. */
static void handle_window_dissociate(struct wl_listener *listener, void *data) {
	struct fw_ratings_x11_window *window =
			wl_container_of(listener, window, dissociate);
	window_unfollow(window);
	fw_listener_disconnect(&window->map);
	fw_listener_disconnect(&window->unmap);
}

static void window_destroy(struct fw_ratings_x11_window *window) {
	window_unfollow(window);
	fw_listener_disconnect(&window->associate);
	fw_listener_disconnect(&window->dissociate);
	fw_listener_disconnect(&window->map);
	fw_listener_disconnect(&window->unmap);
	fw_listener_disconnect(&window->destroy);
	wl_list_remove(&window->link);
	free(window);
}

static void handle_window_destroy(struct wl_listener *listener, void *data) {
	struct fw_ratings_x11_window *window =
			wl_container_of(listener, window, destroy);
	window_destroy(window);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_ratings_x11 *xdamage =
			wl_container_of(listener, xdamage, new_surface);
	struct fw_ratings_x11_window *window = calloc(1, sizeof(*window));
	if (window == NULL) {
		return;
	}
	window->xdamage = xdamage;
	window->xsurface = data;
	window->damage = XCB_NONE;
	fw_listener_connect(&window->associate, &window->xsurface->events.associate,
			handle_window_associate);
	fw_listener_connect(&window->dissociate,
			&window->xsurface->events.dissociate, handle_window_dissociate);
	fw_listener_connect(&window->destroy, &window->xsurface->events.destroy,
			handle_window_destroy);
	wl_list_insert(&xdamage->windows, &window->link);
}

struct fw_ratings_x11 *fw_ratings_x11_create(
		struct fw_server *server, fw_ratings_x11_drawn_func drawn, void *data) {
	struct wlr_xwayland *xwayland = server->xwayland;
	if (xwayland == NULL) {
		return NULL;
	}
	struct fw_ratings_x11 *xdamage = calloc(1, sizeof(*xdamage));
	if (xdamage == NULL) {
		return NULL;
	}
	xdamage->server = server;
	xdamage->drawn = drawn;
	xdamage->data = data;
	wl_list_init(&xdamage->windows);
	xdamage->rearm_timer =
			wl_event_loop_add_timer(server->loop, handle_rearm, xdamage);
	if (xdamage->rearm_timer == NULL) {
		free(xdamage);
		return NULL;
	}
	fw_listener_connect(&xdamage->ready, &xwayland->events.ready, handle_ready);
	fw_listener_connect(&xdamage->new_surface, &xwayland->events.new_surface,
			handle_new_surface);
	if (xwayland->xwm != NULL) {
		/* Up already: windows made before now are not followed. */
		start_connecting(xdamage);
	}
	return xdamage;
}

void fw_ratings_x11_destroy(struct fw_ratings_x11 *xdamage) {
	if (xdamage == NULL) {
		return;
	}
	fw_listener_disconnect(&xdamage->ready);
	fw_listener_disconnect(&xdamage->new_surface);
	struct fw_ratings_x11_window *window, *tmp;
	wl_list_for_each_safe(window, tmp, &xdamage->windows, link) {
		window_destroy(window);
	}
	if (xdamage->connecting != NULL) {
		wl_event_source_remove(xdamage->connecting_source);
		xconnect_abandon(xdamage->connecting);
	}
	if (xdamage->conn != NULL) {
		/* The X server frees the damage objects with the connection. */
		wl_event_source_remove(xdamage->conn_source);
		xcb_disconnect(xdamage->conn);
	}
	wl_event_source_remove(xdamage->rearm_timer);
	free(xdamage);
}

bool fw_ratings_x11_counts(
		struct fw_ratings_x11 *xdamage, struct wlr_xwayland_surface *xsurface) {
	if (xdamage == NULL || xdamage->conn == NULL) {
		return false;
	}
	struct fw_ratings_x11_window *window;
	wl_list_for_each(window, &xdamage->windows, link) {
		if (window->xsurface == xsurface) {
			return window->damage != XCB_NONE;
		}
	}
	return false;
}
