#include "compositor/sched/ratings.h"
#include "compositor/sched/client.h"
#include "compositor/sched/ratings_damage.h"
#include "compositor/sched/ratings_internal.h"
#include "compositor/sched/ratings_x11.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "scheduler/capped_file.h"
#include "scheduler/gate/gate.h"
#include "scheduler/hints/state_dir.h"
#include "scheduler/sched_clock.h"
#include <stdio.h>
#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_content_type_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>

/*
 * How often classes go to the kernel: Etsion, Tsafrir and Feitelson's
 * T_update ("Process Prioritization Using Output Production", Table III).
 */
#define T_UPDATE_MS 1000

static void handle_hints_due(void *data) {
	struct fw_ratings *ratings = data;
	ratings->hints_due = NULL;
	int64_t now = sched_clock_now_ns();
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		if (rated->due) {
			rated->due = false;
			fw_ratings_process_set_class(ratings, rated, now);
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

void fw_ratings_note_input(struct fw_ratings *ratings, struct wl_client *client,
		struct wlr_surface *surface) {
	if (ratings == NULL) {
		return;
	}
	struct fw_rated *rated = NULL;
	if (surface != NULL && surface->resource != NULL) {
		rated = fw_ratings_owner_surface(ratings, surface);
	} else if (client != NULL) {
		struct fw_client *record = fw_ratings_owner_client(ratings, client);
		rated = record != NULL ? record->rated : NULL;
	}
	int64_t now = sched_clock_now_ns();
	/* A client without an input rating is updated at once, as the
	 * ratings' authors have it: one that had it in the window but passed
	 * it on to another client is without it too. */
	for (; rated != NULL; rated = rated->xwayland) {
		ratings_client_note_input(&rated->rc, &ratings->params, now);
		if (rated->class != RATINGS_INTERACTIVE) {
			rated->class = RATINGS_INTERACTIVE;
			set_class_soon(ratings, rated);
		}
	}
}

/* When the client with the newest input had it; INT64_MIN: none. */
static int64_t newest_input(struct fw_ratings *ratings) {
	int64_t newest = INT64_MIN;
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		int64_t last = ratings_client_last_input(&rated->rc);
		newest = last > newest ? last : newest;
	}
	return newest;
}

/* What the gate served each client since the last look: its busy time. */
static void add_service(struct fw_ratings *ratings, int64_t now) {
	struct fw_server *server = ratings->server;
	struct gate *gate = fw_sched_get_gate(server->sched);
	/* Every connected client is rated, drawing or not. */
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(server->display)) {
		struct fw_client *record = fw_ratings_owner_client(ratings, client);
		struct gate_connection *conn =
				gate != NULL ? gate_connection_from_client(client) : NULL;
		if (record != NULL && record->rated != NULL && conn != NULL) {
			int64_t service_ns = gate_connection_service_ns(conn);
			ratings_client_add_busy(
					&record->rated->rc, service_ns - record->service_ns, now);
			record->service_ns = service_ns;
		}
	}
}

static int handle_timer(void *data) {
	struct fw_ratings *ratings = data;
	int64_t now = sched_clock_now_ns();
	add_service(ratings, now);
	int64_t newest = newest_input(ratings);
	struct fw_rated *rated;
	wl_list_for_each(rated, &ratings->rated, link) {
		rated->class = ratings_client_classify_among(
				&rated->rc, &ratings->params, now, newest);
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
				"ratings: pid %d output %.2f fps, %.1f commits a shown frame, "
				"input %s, busy %.3f: %s",
				(int)rated->pid,
				ratings_client_output_rate(&rated->rc, &ratings->params, now),
				ratings_client_surplus(&rated->rc, &ratings->params, now),
				ratings_client_has_input(&rated->rc, &ratings->params, now)
						? "yes"
						: "no",
				ratings_client_busy_share(&rated->rc, &ratings->params, now),
				ratings_class_name(rated->class));
		fw_ratings_process_set_class(ratings, rated, now);
	}
	wl_event_source_timer_update(ratings->timer, T_UPDATE_MS);
	return 0;
}

/* Whether the surface says it shows video or a game (ratings.h). */
static bool declares_motion(
		struct fw_ratings *ratings, struct wlr_surface *surface) {
	struct wlr_content_type_manager_v1 *manager = ratings->server->content_type;
	if (manager == NULL) {
		return false;
	}
	enum wp_content_type_v1_type type =
			wlr_surface_get_content_type_v1(manager, surface);
	return type == WP_CONTENT_TYPE_V1_TYPE_VIDEO ||
			type == WP_CONTENT_TYPE_V1_TYPE_GAME;
}

static void handle_shown(
		struct wlr_surface *surface, double fraction, void *data) {
	struct fw_ratings *ratings = data;
	struct fw_rated *owner = fw_ratings_owner_surface(ratings, surface);
	if (owner != NULL) {
		owner->frame += fraction;
		owner->frame_surfaces++;
		owner->frame_motion =
				owner->frame_motion || declares_motion(ratings, surface);
	}
}

/*
 * Committed frames, against which presented ones weigh: the knee. An X
 * client's are the frames it draws (ratings_x11.h) where they are
 * counted, not Xwayland's commits of its window, which follow the frame
 * callbacks and are at most one a presented frame.
 */
static void handle_committed(struct wlr_surface *surface, void *data) {
	struct fw_ratings *ratings = data;
	struct fw_rated *owner = fw_ratings_owner_surface(ratings, surface);
	if (owner == NULL) {
		return;
	}
	struct wlr_xwayland_surface *xsurface = owner->xwayland != NULL
			? wlr_xwayland_surface_try_from_wlr_surface(surface)
			: NULL;
	if (xsurface != NULL && fw_ratings_x11_counts(ratings->xdamage, xsurface)) {
		return;
	}
	ratings_client_add_commit(&owner->rc, sched_clock_now_ns());
}

/* An X client drew a frame into its window. */
static void handle_x_drawn(struct wlr_xwayland_surface *xsurface, void *data) {
	struct fw_ratings *ratings = data;
	if (xsurface->surface == NULL) {
		return;
	}
	struct fw_rated *owner =
			fw_ratings_owner_surface(ratings, xsurface->surface);
	if (owner != NULL && owner->xwayland != NULL) {
		ratings_client_add_commit(&owner->rc, sched_clock_now_ns());
	}
}

/*
 * A client that declared video or a game is rated output from the frame
 * that shows it, not at the next T_update: what its declaration changes
 * is how soon (ratings.h), so it changes nothing for a client rated output
 * or interactive already.
 */
static void rate_declared(
		struct fw_ratings *ratings, struct fw_rated *rated, int64_t now) {
	if (!rated->rc.declared_motion || rated->class >= RATINGS_OUTPUT) {
		return;
	}
	if (ratings_client_classify_among(&rated->rc, &ratings->params, now,
				newest_input(ratings)) == RATINGS_OUTPUT) {
		rated->class = RATINGS_OUTPUT;
		set_class_soon(ratings, rated);
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
			ratings_client_add_presented(
					&rated->rc, rated->frame_surfaces, now);
			ratings_client_declare_motion(&rated->rc, rated->frame_motion);
			rate_declared(ratings, rated, now);
			rated->frame = 0;
			rated->frame_surfaces = 0;
			rated->frame_motion = false;
		}
	}
}

bool fw_ratings_create(
		struct fw_server *server, const struct hints_config *hints) {
	/* What a fairway that crashed left behind goes back first. */
	const char *state_dir = state_dir_locate();
	hints_replay(state_dir);

	struct fw_ratings *ratings = calloc(1, sizeof(*ratings));
	if (ratings == NULL) {
		return false;
	}
	ratings->server = server;
	ratings->clients = fw_sched_get_clients(server->sched);
	ratings_params_default(&ratings->params);
	wl_list_init(&ratings->rated);
	wl_list_init(&ratings->xsurfaces);
	if (hints->mode != HINTS_OFF) {
		/* Without a journal it can trust, fairway changes nothing. */
		ratings->hints = hints_create(hints, state_dir);
		if (ratings->hints == NULL) {
			wlr_log(WLR_ERROR, "Cannot set up kernel hints: running without");
		}
	}
	ratings->timer =
			wl_event_loop_add_timer(server->loop, handle_timer, ratings);
	if (ratings->timer == NULL) {
		goto error_hints;
	}
	ratings->damage = fw_ratings_damage_create(server,
			&(struct fw_damage_callbacks){
					.shown = handle_shown,
					.frame_done = handle_frame_done,
					.committed = handle_committed,
			},
			ratings);
	if (ratings->damage == NULL) {
		goto error_timer;
	}
	wl_event_source_timer_update(ratings->timer, T_UPDATE_MS);
	fw_ratings_owner_init(ratings);
	/* Without it, X clients' commits count as Wayland clients' do. */
	ratings->xdamage = fw_ratings_x11_create(server, handle_x_drawn, ratings);
	server->ratings = ratings;
	return true;

error_timer:
	wl_event_source_remove(ratings->timer);
error_hints:
	hints_destroy(ratings->hints);
	free(ratings);
	return false;
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
	fw_ratings_x11_destroy(ratings->xdamage);
	fw_ratings_owner_finish(ratings);
	fw_ratings_damage_destroy(ratings->damage);
	/* What is left goes, referenced or not (X clients hold Xwayland's). */
	while (!wl_list_empty(&ratings->rated)) {
		struct fw_rated *rated =
				wl_container_of(ratings->rated.next, rated, link);
		fw_ratings_process_free(rated);
	}
	hints_destroy(ratings->hints);
	free(ratings);
}

void fw_ratings_set_hint_targets(
		struct fw_ratings *ratings, const struct hints_target *targets) {
	if (ratings != NULL && ratings->hints != NULL) {
		hints_set_targets(ratings->hints, targets);
	}
}

void fw_ratings_add_output(
		struct fw_ratings *ratings, struct wlr_output *output) {
	fw_ratings_damage_add_output(ratings->damage, output);
}

void fw_ratings_read_client(struct fw_server *server, struct wl_client *client,
		int64_t now, struct fw_client_rating *rating) {
	*rating = (struct fw_client_rating){.class = -1,
			.input_age_ns = -1,
			.hint_class = -1,
			.app = {.processes = -1,
					.processes_hinted = -1,
					.threads = -1,
					.group_kind = HINT_GROUP_NONE}};
	struct fw_ratings *ratings = server->ratings;
	struct fw_client *record =
			ratings != NULL ? fw_ratings_owner_client(ratings, client) : NULL;
	if (record == NULL || record->rated == NULL) {
		return;
	}
	const struct fw_rated *rated = record->rated;
	rating->class = (int)rated->class;
	rating->output_rate =
			ratings_client_output_rate(&rated->rc, &ratings->params, now);
	rating->busy_share =
			ratings_client_busy_share(&rated->rc, &ratings->params, now);
	if (rated->rc.had_input) {
		rating->input_age_ns = now - rated->rc.last_input_ns;
	}
	if (rated->app != NULL && !rated->app->gone) {
		rating->hint_class = (int)rated->app->applied;
		hints_app_summarize(rated->app, &rating->app);
	}
}

int fw_ratings_client_json(struct fw_server *server, struct wl_client *client,
		char *buf, size_t size) {
	struct fw_ratings *ratings = server->ratings;
	struct fw_client *record =
			ratings != NULL ? fw_ratings_owner_client(ratings, client) : NULL;
	if (record == NULL || record->rated == NULL) {
		if (size > 0) {
			buf[0] = '\0';
		}
		return 0;
	}
	return snprintf(buf, size, ",\"class\":\"%s\"",
			ratings_class_name(record->rated->class));
}

void fw_ratings_write_stats(
		struct fw_server *server, struct capped_file *out, double t) {
	struct fw_ratings *ratings = server->ratings;
	if (ratings == NULL) {
		return;
	}
	int64_t now = sched_clock_now_ns();
	struct fw_rated *rated;
	wl_list_for_each_reverse(rated, &ratings->rated, link) {
		/* Its application: processes, group, the class each has. */
		char app[CAPPED_FILE_LINE_MAX - 512];
		if (rated->app == NULL ||
				hints_app_json(rated->app, app, sizeof(app)) >=
						(int)sizeof(app)) {
			app[0] = '\0';
		}
		char input_age[32] = "null";
		if (rated->rc.had_input) {
			snprintf(input_age, sizeof(input_age), "%.0f",
					(double)(now - rated->rc.last_input_ns) / 1e6);
		}
		capped_file_printf(out,
				"{\"t\":%.3f,\"rated\":%d,\"class\":\"%s\","
				"\"output_fps\":%.2f,\"commits_per_frame\":%.2f,"
				"\"commits_per_s\":%.1f,\"input_age_ms\":%s,"
				"\"busy\":%.3f,\"x_client\":%s,\"hinted\":%s%s}\n",
				t, (int)rated->pid, ratings_class_name(rated->class),
				ratings_client_output_rate(&rated->rc, &ratings->params, now),
				ratings_client_surplus(&rated->rc, &ratings->params, now),
				ratings_client_commit_rate(&rated->rc, &ratings->params, now),
				input_age,
				ratings_client_busy_share(&rated->rc, &ratings->params, now),
				rated->xwayland != NULL ? "true" : "false",
				rated->app != NULL ? "true" : "false", app);
	}
	if (ratings->hints != NULL) {
		char unsupported[64];
		hints_unsupported_names(
				ratings->hints, unsupported, sizeof(unsupported));
		capped_file_printf(out,
				"{\"t\":%.3f,\"hints\":\"%s\",\"unsupported\":\"%s\","
				"\"changes\":%llu,\"undone\":%llu,\"walks\":%llu,"
				"\"walk_cpu_ms\":%.3f}\n",
				t, hints_mode_name(ratings->hints->config.mode), unsupported,
				(unsigned long long)ratings->hints->changes,
				(unsigned long long)ratings->hints->undone,
				(unsigned long long)ratings->hints->walks,
				(double)ratings->hints->walk_cpu_ns / 1e6);
	}
}
