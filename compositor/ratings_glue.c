#include "compositor/ratings_glue.h"
#include "compositor/app_rules.h"
#include "compositor/ratings_damage.h"
#include "compositor/server.h"
#include "scheduler/clock.h"
#include "scheduler/gate.h"
#include "scheduler/hints.h"
#include "scheduler/log.h"
#include "scheduler/ratings.h"
#include "scheduler/state_dir.h"
#include <pixman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wlr/backend.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>

/* T_update (seed 001, Table III): how often classes go to the kernel. */
#define T_UPDATE_MS 1000

/* One client process: Wayland clients of one pid, or an X client. */
struct fw_rated {
	pid_t pid;
	int refs;
	struct ratings_client rc;
	/*
	 * Its hints, made at its first class change, off the input path:
	 * NULL before, without hints, or once gone. Until then, the pidfd
	 * and uid it will be checked against.
	 */
	struct hints_proc *proc;
	bool hinted; /* proc made, or tried */
	int pidfd;
	uid_t uid;
	bool never_idle; /* Xwayland: hints_proc_never_idle */
	bool due; /* its class waits for handle_hints_due */
	struct fw_rated *xwayland; /* an X client's Xwayland, referenced */
	double frame; /* damage shown by the frame being counted */
	enum ratings_class class;
	struct wl_list link; /* fw_ratings.rated */
};

struct fw_rated_client {
	struct fw_rated *rated; /* NULL: not rated (fairway itself) */
	int64_t run_ns; /* gate service seen so far */
	struct wl_listener destroy;
};

struct fw_rated_xsurface {
	struct fw_ratings *ratings;
	struct wlr_xwayland_surface *xsurface;
	struct fw_rated *rated; /* referenced once its pid is known */
	struct wl_listener destroy;
	struct wl_list link; /* fw_ratings.xsurfaces */
};

struct fw_ratings {
	struct fw_server *server;
	struct ratings_params params;
	struct hints *hints;
	struct wl_list rated, xsurfaces;
	struct fw_damage_tracker *damage;
	struct wl_event_source *timer;
	/* Runs the class changes input asked for, after the input went out. */
	struct wl_event_source *hints_due;
	struct wl_listener new_xsurface;
};

__attribute__((format(printf, 2, 0))) static void log_through_wlr(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	_wlr_vlog((enum wlr_log_importance)importance, fmt, args);
}

static struct fw_rated *rated_get(
		struct fw_ratings *ratings, pid_t pid, int pidfd, uid_t uid) {
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		if (rated->pid == pid) {
			if (pidfd >= 0) {
				close(pidfd);
			}
			rated->refs++;
			return rated;
		}
	}
	rated = calloc(1, sizeof(*rated));
	if (rated == NULL) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	rated->pid = pid;
	rated->refs = 1;
	rated->class = RATINGS_IDLE;
	rated->pidfd = pidfd;
	rated->uid = uid;
	ratings_client_init(&rated->rc, pid);
	wl_list_insert(ratings->rated.prev, &rated->link);
	return rated;
}

static void rated_free(struct fw_rated *rated) {
	/* Gone from the compositor: its threads get their own back. */
	hints_proc_destroy(rated->proc);
	if (rated->pidfd >= 0) {
		close(rated->pidfd);
	}
	wl_list_remove(&rated->link);
	free(rated);
}

static void rated_unref(struct fw_rated *rated) {
	if (rated == NULL || --rated->refs > 0) {
		return;
	}
	struct fw_rated *xwayland = rated->xwayland;
	rated_free(rated);
	rated_unref(xwayland);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_rated_client *rc = wl_container_of(listener, rc, destroy);
	wl_list_remove(&rc->destroy.link);
	rated_unref(rc->rated);
	free(rc);
}

static struct wl_client *xwayland_client(struct fw_server *server) {
	if (server->xwayland == NULL || server->xwayland->server == NULL) {
		return NULL;
	}
	return server->xwayland->server->client;
}

/*
 * Xwayland's process: the writer at the other end of the socketpair
 * wlroots made for it, as the gate pinned it (peer.h), never a process
 * found by its name. 0 until it is known, and without the gate.
 */
static pid_t xwayland_pid(struct fw_server *server) {
	struct wl_client *client = xwayland_client(server);
	struct gate_connection *conn = client != NULL && server->gate != NULL
			? gate_connection_from_client(client)
			: NULL;
	return conn != NULL ? conn->peer.pid : 0;
}

static struct fw_rated_client *client_get(
		struct fw_ratings *ratings, struct wl_client *client) {
	struct wl_listener *listener =
			wl_client_get_destroy_listener(client, handle_client_destroy);
	if (listener != NULL) {
		struct fw_rated_client *rc = wl_container_of(listener, rc, destroy);
		return rc;
	}
	struct fw_server *server = ratings->server;
	pid_t pid = 0;
	uid_t uid = HINTS_ANY_UID;
	int pidfd = -1;
	struct gate_connection *conn =
			server->gate != NULL ? gate_connection_from_client(client) : NULL;
	if (conn != NULL) {
		if (conn->pin_writer) {
			/* Xwayland has not written yet: asked again later. */
			return NULL;
		}
		/* Pinned at accept (peer.h); pid 0 if it could not be. */
		pid = conn->peer.pid;
		uid = conn->peer.uid;
		pidfd = peer_dup_pidfd(&conn->peer);
	} else if (client != xwayland_client(server)) {
		/* --scheduler off: a pid, checked from here on (hints.h). */
		gid_t gid;
		wl_client_get_credentials(client, &pid, &uid, &gid);
	}
	struct fw_rated_client *rc = calloc(1, sizeof(*rc));
	if (rc == NULL) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	if (pid > 0 && pid != getpid()) {
		rc->rated = rated_get(ratings, pid, pidfd, uid);
		if (rc->rated != NULL && client == xwayland_client(server)) {
			/* wlroots' window manager blocks fairway on Xwayland. */
			rc->rated->never_idle = true;
		}
	} else if (pidfd >= 0) {
		close(pidfd);
	}
	if (conn != NULL) {
		rc->run_ns = conn->entity.stats.run_ns;
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
	struct wl_client *client = xwayland_client(ratings->server);
	pid_t pid = xs->xsurface->pid;
	if (xs->rated != NULL || client == NULL || pid <= 0 ||
			pid == xwayland_pid(ratings->server) || pid == getpid()) {
		return xs->rated;
	}
	struct fw_rated_client *parent = client_get(ratings, client);
	if (parent == NULL) {
		/* Xwayland's own process is not known yet: later. */
		return NULL;
	}
	xs->rated = rated_get(ratings, pid, -1, HINTS_ANY_UID);
	if (xs->rated != NULL && xs->rated->xwayland == NULL && parent != NULL &&
			parent->rated != NULL) {
		xs->rated->xwayland = parent->rated;
		parent->rated->refs++;
	}
	return xs->rated;
}

static struct fw_rated *surface_owner(
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
	struct fw_rated_client *rc =
			client_get(ratings, wl_resource_get_client(surface->resource));
	return rc != NULL ? rc->rated : NULL;
}

/*
 * Hands the class to the kernel: the /proc walk, the journal's fsync and
 * the sched_setattr calls, never on the input path (handle_hints_due).
 */
static void set_class(
		struct fw_ratings *ratings, struct fw_rated *rated, int64_t now) {
	if (!rated->hinted && ratings->hints != NULL) {
		rated->hinted = true;
		rated->proc = hints_proc_create(
				ratings->hints, rated->pid, rated->pidfd, rated->uid);
		rated->pidfd = -1;
		if (rated->proc != NULL && rated->never_idle) {
			hints_proc_never_idle(rated->proc);
		}
	}
	if (rated->proc != NULL) {
		/* A per-application rule may override what was measured. */
		fw_app_rules_set_hint(
				ratings->server, rated->proc, rated->pid, rated->class, now);
	}
}

static void handle_hints_due(void *data) {
	struct fw_ratings *ratings = data;
	ratings->hints_due = NULL;
	int64_t now = sched_clock_now_ns();
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		if (rated->due) {
			rated->due = false;
			set_class(ratings, rated, now);
		}
	}
}

/*
 * Input made a client interactive: its hints follow once the input has
 * gone out and the loop is idle, as the gate's boost did at once.
 */
static void set_class_soon(struct fw_ratings *ratings, struct fw_rated *rated) {
	rated->due = true;
	if (ratings->hints_due == NULL) {
		ratings->hints_due = wl_event_loop_add_idle(
				ratings->server->loop, handle_hints_due, ratings);
	}
}

void fw_ratings_note_input(struct fw_server *server, struct wl_client *client,
		struct wlr_surface *surface) {
	struct fw_ratings *ratings = server->ratings;
	if (ratings == NULL) {
		return;
	}
	if (surface == NULL && client != NULL &&
			xwayland_client(server) == client) {
		/* Which X client: the one whose window has the focus. */
		surface = server->seat->keyboard_state.focused_surface;
		if (surface == NULL || surface->resource == NULL ||
				wl_resource_get_client(surface->resource) != client) {
			surface = server->seat->pointer_state.focused_surface;
		}
	}
	struct fw_rated *rated = NULL;
	if (surface != NULL && surface->resource != NULL) {
		rated = surface_owner(ratings, surface);
	} else if (client != NULL) {
		struct fw_rated_client *rc = client_get(ratings, client);
		rated = rc != NULL ? rc->rated : NULL;
	}
	int64_t now = sched_clock_now_ns();
	/* A client without an input rating is updated at once (seed 001). */
	for (; rated != NULL; rated = rated->xwayland) {
		if (ratings_client_note_input(&rated->rc, &ratings->params, now)) {
			rated->class = RATINGS_INTERACTIVE;
			set_class_soon(ratings, rated);
		}
	}
}

static int handle_timer(void *data) {
	struct fw_ratings *ratings = data;
	struct fw_server *server = ratings->server;
	int64_t now = sched_clock_now_ns();
	/* Every connected client is rated, drawing or not. */
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(server->display)) {
		struct fw_rated_client *rc = client_get(ratings, client);
		struct gate_connection *conn = server->gate != NULL
				? gate_connection_from_client(client)
				: NULL;
		if (rc != NULL && rc->rated != NULL && conn != NULL) {
			int64_t run_ns = conn->entity.stats.run_ns;
			ratings_client_add_busy(&rc->rated->rc, run_ns - rc->run_ns, now);
			rc->run_ns = run_ns;
		}
	}
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		rated->class =
				ratings_client_classify(&rated->rc, &ratings->params, now);
	}
	/* Xwayland works for its X clients: it takes the strongest class. */
	wl_list_for_each(rated, &ratings->rated, link) {
		if (rated->xwayland != NULL) {
			rated->xwayland->class =
					ratings_class_max(rated->xwayland->class, rated->class);
		}
	}
	wl_list_for_each(rated, &ratings->rated, link) {
		wlr_log(WLR_DEBUG,
				"ratings: pid %d output %.2f fps, input %s, busy %.3f: %s",
				(int)rated->pid,
				ratings_client_output_rate(&rated->rc, &ratings->params, now),
				ratings_client_has_input(&rated->rc, &ratings->params, now)
						? "yes"
						: "no",
				ratings_client_busy_share(&rated->rc, &ratings->params, now),
				ratings_class_name(rated->class));
		set_class(ratings, rated, now);
	}
	wl_event_source_timer_update(ratings->timer, T_UPDATE_MS);
	return 0;
}

static void handle_shown(
		struct wlr_surface *surface, double fraction, void *data) {
	struct fw_ratings *ratings = data;
	struct fw_rated *owner = surface_owner(ratings, surface);
	if (owner != NULL) {
		owner->frame += fraction;
	}
}

/* Each client's share of the frame counts once, at most 1 (ratings.h). */
static void handle_frame_done(void *data) {
	struct fw_ratings *ratings = data;
	int64_t now = sched_clock_now_ns();
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		if (rated->frame > 0) {
			ratings_client_add_frame(&rated->rc, rated->frame, now);
			rated->frame = 0;
		}
	}
}

static void xsurface_destroy(struct fw_rated_xsurface *xs) {
	wl_list_remove(&xs->destroy.link);
	wl_list_remove(&xs->link);
	rated_unref(xs->rated);
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
	xs->destroy.notify = handle_xsurface_destroy;
	wl_signal_add(&xs->xsurface->events.destroy, &xs->destroy);
	wl_list_insert(&ratings->xsurfaces, &xs->link);
}

int fw_ratings_restore_journal(void) {
	sched_log_init(log_through_wlr);
	const char *state_dir = state_dir_locate();
	if (state_dir == NULL) {
		fprintf(stderr, "fairway: no trustworthy state directory\n");
		return 1;
	}
	int count = hints_replay(state_dir);
	printf("restored %d thread(s)\n", count < 0 ? 0 : count);
	return count < 0 ? 1 : 0;
}

bool fw_ratings_create(struct fw_server *server) {
	sched_log_init(log_through_wlr);
	/* What a fairway that crashed left behind goes back first. */
	const char *state_dir = state_dir_locate();
	hints_replay(state_dir);

	struct fw_ratings *ratings = calloc(1, sizeof(*ratings));
	if (ratings == NULL) {
		return false;
	}
	ratings->server = server;
	ratings_params_default(&ratings->params);
	wl_list_init(&ratings->rated);
	wl_list_init(&ratings->xsurfaces);
	if (server->config.hints.mode != HINTS_OFF) {
		/* Without a journal it can trust, fairway changes nothing. */
		ratings->hints = hints_create(&server->config.hints, state_dir);
		if (ratings->hints == NULL) {
			wlr_log(WLR_ERROR, "Cannot set up kernel hints: running without");
		}
	}
	ratings->timer =
			wl_event_loop_add_timer(server->loop, handle_timer, ratings);
	if (ratings->timer == NULL) {
		hints_destroy(ratings->hints);
		free(ratings);
		return false;
	}
	ratings->damage = fw_damage_tracker_create(
			server, handle_shown, handle_frame_done, ratings);
	if (ratings->damage == NULL) {
		wl_event_source_remove(ratings->timer);
		hints_destroy(ratings->hints);
		free(ratings);
		return false;
	}
	wl_event_source_timer_update(ratings->timer, T_UPDATE_MS);
	wl_list_init(&ratings->new_xsurface.link);
	if (server->xwayland != NULL) {
		ratings->new_xsurface.notify = handle_new_xsurface;
		wl_signal_add(
				&server->xwayland->events.new_surface, &ratings->new_xsurface);
	}
	server->ratings = ratings;
	return true;
}

void fw_ratings_destroy(struct fw_server *server) {
	struct fw_ratings *ratings = server->ratings;
	if (ratings == NULL) {
		return;
	}
	server->ratings = NULL;
	wl_event_source_remove(ratings->timer);
	if (ratings->hints_due != NULL) {
		wl_event_source_remove(ratings->hints_due);
	}
	wl_list_remove(&ratings->new_xsurface.link);
	struct fw_rated_xsurface *xs, *xs_tmp;
	wl_list_for_each_safe(xs, xs_tmp, &ratings->xsurfaces, link) {
		xsurface_destroy(xs);
	}
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(server->display)) {
		struct wl_listener *listener =
				wl_client_get_destroy_listener(client, handle_client_destroy);
		if (listener != NULL) {
			handle_client_destroy(listener, client);
		}
	}
	fw_damage_tracker_destroy(ratings->damage);
	/* What is left goes, referenced or not (X clients hold Xwayland's). */
	while (!wl_list_empty(&ratings->rated)) {
		struct fw_rated *rated =
				wl_container_of(ratings->rated.next, rated, link);
		rated_free(rated);
	}
	hints_destroy(ratings->hints);
	free(ratings);
}

void fw_ratings_set_hint_targets(struct fw_server *server) {
	struct fw_ratings *ratings = server->ratings;
	if (ratings != NULL && ratings->hints != NULL) {
		hints_set_targets(ratings->hints, server->config.hints.targets);
	}
}
