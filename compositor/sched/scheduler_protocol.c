#include "compositor/sched/scheduler_protocol.h"
#include "compositor/listener.h"
#include "compositor/sched/build_top.h"
#include "compositor/sched/client.h"
#include "compositor/sched/ratings.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "fairway-scheduler-unstable-v1-protocol.h"
#include "scheduler/gate/client_stats.h"
#include "scheduler/gate/gate.h"
#include "scheduler/sched_clock.h"
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/util/log.h>

#define MANAGER_VERSION 2
#define SELF_VERSION 1
/* Statistics no more often than this, per subscription (the XML). */
#define MIN_PERIOD_MS 100
#define MAX_PERIOD_MS 3600000
/* How often who each client is (its pid, its app_ids) is looked at again. */
#define IDENTIFY_PERIOD_MS 1000
/* A snapshot this fresh is sent again rather than read again from /proc. */
#define SNAPSHOT_REUSE_NS (50 * SCHED_NS_PER_MS)
/* Bounds what one client's app_id events cost on the wire. */
#define APP_IDS_MAX 16
#define APP_IDS_BYTES 1024

#define STAT_COUNT_V1 (FAIRWAY_SCHEDULER_CLIENT_V1_STAT_HINT_CLASS + 1)
#define STAT_COUNT (FAIRWAY_SCHEDULER_CLIENT_V1_STAT_GROUP_VALUE + 1)

struct fw_scheduler_protocol {
	struct fw_server *server;
	/* Read at each bind: a reload replaces what it holds. */
	const struct fw_sched_config *config;
	/* The fairway-top of the build tree fairway runs from, or NULL. */
	char *build_top;
	fw_scheduler_protocol_app_ids_func app_ids;
	struct gate *gate;
	struct wl_global *manager_global;
	struct wl_global *self_global;
	struct wl_list clients; /* fw_sp_client.link, oldest first */
	struct wl_list managers; /* fw_sp_manager.link */
	struct fw_client_list *records;
	struct wl_listener new_connection;
	struct wl_listener client_destroy;
	struct wl_event_source *identify; /* runs while a manager is bound */
	uint32_t next_id;
	/*
	 * Clients are followed (sp->clients) from the first manager's bind
	 * on: until one watches, hundreds of idle clients would each hold a
	 * record, and have their comm read, for nothing.
	 */
	bool following;
};

/* One gated client, as the protocol names it. */
struct fw_sp_client {
	struct fw_scheduler_protocol *sp;
	struct gate_connection *conn;
	struct wl_client *client;
	struct fw_client *record; /* who it is (client.h) */
	uint32_t id;
	bool known; /* its process is, and was told */
	/*
	 * Its app_ids, each ended by a NUL; app_ids_len bytes in all, NULL
	 * while it has none. Allocated as they come, like stats: most clients
	 * are never watched, and hundreds of idle ones would each hold
	 * more than the gate does for them.
	 */
	char *app_ids;
	size_t app_ids_len;
	struct gate_client_stats *stats; /* NULL until a subscriber asks */
	int64_t stats_ns; /* when stats was read; 0: never */
	struct wl_list handles; /* fw_sp_handle.client_link */
	struct wl_list link; /* fw_scheduler_protocol.clients */
};

struct fw_sp_manager {
	struct fw_scheduler_protocol *sp;
	struct wl_resource *resource;
	struct wl_list handles; /* fw_sp_handle.manager_link */
	struct wl_event_source *timer; /* subscribe_all's */
	uint32_t period_ms; /* 0: no subscription */
	struct wl_list link; /* fw_scheduler_protocol.managers */
};

/* A fairway_scheduler_client_v1: one manager's view of one client. */
struct fw_sp_handle {
	struct wl_resource *resource;
	struct fw_sp_manager *manager; /* NULL once the manager is gone */
	struct fw_sp_client *client; /* NULL once closed */
	struct wl_event_source *timer; /* subscribe's */
	uint32_t period_ms;
	struct wl_list manager_link;
	struct wl_list client_link;
};

static const struct fairway_scheduler_client_v1_interface handle_impl;
static const struct fairway_scheduler_manager_v1_interface manager_impl;
static const struct fairway_scheduler_self_v1_interface self_impl;

/* --- who a client is ---------------------------------------------------- */

/* Whether the process is now known where it was not: info comes again. */
static bool identify_process(struct fw_sp_client *sc) {
	if (sc->known || !fw_client_identify(sc->record)) {
		return false;
	}
	sc->known = true;
	return true;
}

/* Whether its mapped windows' app_ids (X classes) changed. */
static bool identify_app_ids(struct fw_sp_client *sc) {
	char ids[APP_IDS_BYTES];
	size_t len = sc->sp->app_ids(
			sc->sp->server, sc->client, ids, sizeof(ids), APP_IDS_MAX);
	if (len == sc->app_ids_len &&
			(len == 0 || memcmp(ids, sc->app_ids, len) == 0)) {
		return false;
	}
	char *copy = NULL;
	if (len > 0) {
		copy = malloc(len);
		if (copy == NULL) {
			return false; /* looked at again at the next identify */
		}
		memcpy(copy, ids, len);
	}
	free(sc->app_ids);
	sc->app_ids = copy;
	sc->app_ids_len = len;
	return true;
}

static void send_identity(struct fw_sp_handle *handle) {
	struct fw_sp_client *sc = handle->client;
	const struct fw_client *record = sc->record;
	uint32_t flags = 0;
	if (record->xwayland) {
		flags |= FAIRWAY_SCHEDULER_CLIENT_V1_FLAGS_XWAYLAND;
	}
	if (handle->manager != NULL &&
			wl_resource_get_client(handle->manager->resource) == sc->client) {
		flags |= FAIRWAY_SCHEDULER_CLIENT_V1_FLAGS_SELF;
	}
	fairway_scheduler_client_v1_send_info(handle->resource, sc->id,
			sc->known ? record->process.pid : 0,
			sc->known ? record->uid : (uint32_t)-1,
			sc->known ? record->process.comm : "", flags);
	for (size_t at = 0; at < sc->app_ids_len;
			at += strlen(sc->app_ids + at) + 1) {
		fairway_scheduler_client_v1_send_app_id(
				handle->resource, sc->app_ids + at);
	}
	fairway_scheduler_client_v1_send_done(handle->resource);
}

static int handle_identify(void *data) {
	struct fw_scheduler_protocol *sp = data;
	struct fw_sp_client *sc;
	wl_list_for_each(sc, &sp->clients, link) {
		bool changed = identify_process(sc);
		changed = identify_app_ids(sc) || changed;
		if (!changed) {
			continue;
		}
		struct fw_sp_handle *handle;
		wl_list_for_each(handle, &sc->handles, client_link) {
			send_identity(handle);
		}
	}
	if (!wl_list_empty(&sp->managers)) {
		wl_event_source_timer_update(sp->identify, IDENTIFY_PERIOD_MS);
	}
	return 0;
}

/* --- statistics --------------------------------------------------------- */

static int64_t clamp_i64(double value) {
	return value > 9e18 ? INT64_MAX : (int64_t)value;
}

static void send_stats(struct fw_sp_handle *handle) {
	struct fw_sp_client *sc = handle->client;
	struct fw_scheduler_protocol *sp = sc->sp;
	int64_t now = sched_clock_now_ns();
	/* Several subscribers at once read /proc once. */
	if (sc->stats == NULL) {
		sc->stats = calloc(1, sizeof(*sc->stats));
		if (sc->stats == NULL) {
			wlr_log(WLR_ERROR, "Out of memory for client %u's statistics",
					sc->id);
			return;
		}
	}
	if (sc->stats_ns == 0 || now - sc->stats_ns > SNAPSHOT_REUSE_NS) {
		gate_client_stats_read(sc->conn, sc->stats);
		sc->stats_ns = now;
	}
	const struct gate_client_stats *s = sc->stats;
	struct fw_client_rating rating;
	fw_ratings_read_client(sp->server, sc->client, now, &rating);

	int64_t values[STAT_COUNT] = {
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_TIME_NS] = sc->stats_ns,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_READY] =
					strcmp(s->state, "ready") == 0,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_BASE_PRIORITY] =
					s->client_priority,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_SMART_PRIORITY] = s->priority,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_TURNS] = (int64_t)s->sched.turns,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_EXPIRED] =
					(int64_t)s->sched.expired,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_BOOSTS] =
					(int64_t)s->sched.boosts,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_PREEMPTED] =
					(int64_t)s->sched.preempted,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_RESCUED] =
					(int64_t)s->sched.rescued,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_DISPATCH_NS] = s->sched.run_ns,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_REQUESTS] =
					(int64_t)s->io.requests,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_REQUEST_BYTES] =
					(int64_t)s->io.request_bytes,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_EVENTS] = (int64_t)s->io.events,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_EVENT_BYTES] =
					(int64_t)s->io.event_bytes,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_BATCHES] = (int64_t)s->io.batches,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_READS] = (int64_t)s->io.reads,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_THROTTLED] =
					(int64_t)s->io.throttled,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_QUEUED_REQUEST_BYTES] =
					(int64_t)s->queued_request_bytes,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_QUEUED_EVENT_BYTES] =
					(int64_t)s->queued_event_bytes,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_COST_PER_REQUEST_NS] =
					clamp_i64(s->cost_per_request_us * 1e3),
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_VOLUNTARY_SWITCHES] =
					s->voluntary_switches,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_INVOLUNTARY_SWITCHES] =
					s->involuntary_switches,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_CLASS] = rating.class,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_OUTPUT_RATE_MFPS] =
					clamp_i64(rating.output_rate * 1e3),
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_INPUT_AGE_NS] =
					rating.input_age_ns,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_BUSY_PPM] =
					clamp_i64(rating.busy_share * 1e6),
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_HINT_CLASS] = rating.hint_class,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_PROCESSES] = rating.app.processes,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_PROCESSES_HINTED] =
					rating.app.processes_hinted,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_THREADS] = rating.app.threads,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_GROUP_KIND] =
					rating.app.group_kind,
			[FAIRWAY_SCHEDULER_CLIENT_V1_STAT_GROUP_VALUE] =
					rating.app.group_value,
	};
	/* A version 1 reader gets the values version 1 knew. */
	size_t count = wl_resource_get_version(handle->resource) >= 2
			? STAT_COUNT
			: STAT_COUNT_V1;
	struct wl_array array = {
			.size = count * sizeof(values[0]),
			.alloc = count * sizeof(values[0]),
			.data = values,
	};
	fairway_scheduler_client_v1_send_stats(handle->resource, &array);
}

static uint32_t clamp_period(uint32_t period_ms) {
	if (period_ms == 0) {
		return 0;
	}
	if (period_ms < MIN_PERIOD_MS) {
		return MIN_PERIOD_MS;
	}
	return period_ms > MAX_PERIOD_MS ? MAX_PERIOD_MS : period_ms;
}

static int handle_handle_timer(void *data) {
	struct fw_sp_handle *handle = data;
	if (handle->client != NULL && handle->period_ms > 0) {
		send_stats(handle);
		wl_event_source_timer_update(handle->timer, (int)handle->period_ms);
	}
	return 0;
}

static int handle_manager_timer(void *data) {
	struct fw_sp_manager *manager = data;
	if (manager->period_ms == 0) {
		return 0;
	}
	struct fw_sp_handle *handle;
	wl_list_for_each(handle, &manager->handles, manager_link) {
		if (handle->client != NULL) {
			send_stats(handle);
		}
	}
	fairway_scheduler_manager_v1_send_round_done(manager->resource);
	wl_event_source_timer_update(manager->timer, (int)manager->period_ms);
	return 0;
}

/*
 * Starts, changes or stops a subscription's timer; false when no timer
 * could be made (the client is told with a no-memory error).
 */
static bool set_period(struct fw_scheduler_protocol *sp,
		struct wl_event_source **timer, uint32_t *period_ms, uint32_t requested,
		wl_event_loop_timer_func_t func, void *data) {
	*period_ms = clamp_period(requested);
	if (*timer == NULL && *period_ms > 0) {
		*timer = wl_event_loop_add_timer(sp->server->loop, func, data);
		if (*timer == NULL) {
			*period_ms = 0;
			return false;
		}
	}
	if (*timer != NULL) {
		/* The first round comes at once: a new subscriber sees where
		 * everything stands, then the changes. */
		wl_event_source_timer_update(*timer, *period_ms > 0 ? 1 : 0);
	}
	return true;
}

/* --- fairway_scheduler_client_v1 ---------------------------------------- */

static struct fw_sp_handle *handle_from_resource(struct wl_resource *resource) {
	assert(wl_resource_instance_of(
			resource, &fairway_scheduler_client_v1_interface, &handle_impl));
	return wl_resource_get_user_data(resource);
}

static void handle_request_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void handle_set_priority(struct wl_client *client,
		struct wl_resource *resource, int32_t priority) {
	struct fw_sp_handle *handle = handle_from_resource(resource);
	if (priority < SCHED_MIN_PRIORITY || priority > SCHED_MAX_PRIORITY) {
		wl_resource_post_error(resource,
				FAIRWAY_SCHEDULER_CLIENT_V1_ERROR_INVALID_PRIORITY,
				"priority %d is outside [%d, %d]", priority, SCHED_MIN_PRIORITY,
				SCHED_MAX_PRIORITY);
		return;
	}
	if (handle == NULL || handle->client == NULL) {
		return; /* gone meanwhile: nothing to steer */
	}
	struct fw_sp_client *sc = handle->client;
	struct fw_server *server = sc->sp->server;
	if (fw_sched_set_client_priority(server->sched, sc->client, priority)) {
		struct fw_client *by = fw_client_get(client);
		wlr_log(WLR_INFO, "Client pid %d (%s): priority %d, set by pid %d",
				(int)sc->record->process.pid, sc->record->process.comm,
				priority,
				by != NULL && fw_client_identify(by) ? (int)by->process.pid
													 : 0);
		sc->stats_ns = 0;
	}
}

static void handle_subscribe(struct wl_client *client,
		struct wl_resource *resource, uint32_t period_ms) {
	struct fw_sp_handle *handle = handle_from_resource(resource);
	if (handle == NULL || handle->client == NULL || handle->manager == NULL) {
		return; /* its client or its manager is gone */
	}
	if (!set_period(handle->client->sp, &handle->timer, &handle->period_ms,
				period_ms, handle_handle_timer, handle)) {
		wl_client_post_no_memory(client);
		return;
	}
	fairway_scheduler_client_v1_send_period(resource, handle->period_ms);
}

static const struct fairway_scheduler_client_v1_interface handle_impl = {
		.destroy = handle_request_destroy,
		.set_priority = handle_set_priority,
		.subscribe = handle_subscribe,
};

/* Stops everything a handle does; it stays as an inert resource. */
static void handle_unsubscribe(struct fw_sp_handle *handle) {
	if (handle->timer != NULL) {
		wl_event_source_remove(handle->timer);
		handle->timer = NULL;
	}
	handle->period_ms = 0;
}

static void handle_close(struct fw_sp_handle *handle) {
	handle_unsubscribe(handle);
	if (handle->client != NULL) {
		wl_list_remove(&handle->client_link);
		wl_list_init(&handle->client_link);
		handle->client = NULL;
	}
}

static void handle_resource_destroy(struct wl_resource *resource) {
	struct fw_sp_handle *handle = wl_resource_get_user_data(resource);
	if (handle == NULL) {
		return;
	}
	handle_close(handle);
	wl_list_remove(&handle->manager_link);
	free(handle);
}

/* Announces sc to manager: a new handle, its info, app_ids and done. */
static void announce(struct fw_sp_manager *manager, struct fw_sp_client *sc) {
	struct wl_client *client = wl_resource_get_client(manager->resource);
	struct fw_sp_handle *handle = calloc(1, sizeof(*handle));
	if (handle == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	handle->resource =
			wl_resource_create(client, &fairway_scheduler_client_v1_interface,
					wl_resource_get_version(manager->resource), 0);
	if (handle->resource == NULL) {
		free(handle);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(
			handle->resource, &handle_impl, handle, handle_resource_destroy);
	handle->manager = manager;
	handle->client = sc;
	wl_list_insert(manager->handles.prev, &handle->manager_link);
	wl_list_insert(sc->handles.prev, &handle->client_link);
	fairway_scheduler_manager_v1_send_client(
			manager->resource, handle->resource);
	send_identity(handle);
}

/* --- the clients -------------------------------------------------------- */

static void client_destroy(struct fw_sp_client *sc) {
	struct fw_sp_handle *handle, *tmp;
	wl_list_for_each_safe(handle, tmp, &sc->handles, client_link) {
		fairway_scheduler_client_v1_send_closed(handle->resource);
		handle_close(handle);
	}
	sc->record->protocol = NULL;
	wl_list_remove(&sc->link);
	free(sc->app_ids);
	free(sc->stats);
	free(sc);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_client *record = data;
	if (record->protocol != NULL) {
		client_destroy(record->protocol);
	}
}

static void client_add(
		struct fw_scheduler_protocol *sp, struct gate_connection *conn) {
	struct fw_client *record = fw_client_get(gate_connection_get_client(conn));
	struct fw_sp_client *sc = record != NULL ? calloc(1, sizeof(*sc)) : NULL;
	if (sc == NULL) {
		wlr_log(WLR_ERROR,
				"Cannot follow a new client for the scheduler "
				"protocol");
		return;
	}
	sc->sp = sp;
	sc->conn = conn;
	sc->client = record->wl_client;
	sc->record = record;
	record->protocol = sc;
	sc->id = ++sp->next_id;
	wl_list_init(&sc->handles);
	identify_process(sc);
	wl_list_insert(sp->clients.prev, &sc->link);
	struct fw_sp_manager *manager;
	wl_list_for_each(manager, &sp->managers, link) {
		announce(manager, sc);
	}
}

static void handle_new_connection(struct wl_listener *listener, void *data) {
	struct fw_scheduler_protocol *sp =
			wl_container_of(listener, sp, new_connection);
	if (sp->following) {
		client_add(sp, data);
	}
}

static enum wl_iterator_result add_existing(
		struct gate_connection *conn, void *data) {
	client_add(data, conn);
	return WL_ITERATOR_CONTINUE;
}

/* --- fairway_scheduler_manager_v1 --------------------------------------- */

/*
 * Whether path is one of the executables the configuration names; without
 * a word of it, the installed fairway-top or the one built beside fairway.
 */
static bool manager_exe_allowed(
		const struct fw_scheduler_protocol *sp, const char *path) {
	const struct fw_sched_config *config = sp->config;
	if (path == NULL) {
		return false;
	}
	if (!config->manager_exes_set) {
		return strcmp(path, FW_TOP_PATH) == 0 ||
				fw_build_top_trusted(sp->build_top, path);
	}
	for (size_t i = 0; i < config->manager_exe_count; i++) {
		if (strcmp(path, config->manager_exes[i]) == 0) {
			return true;
		}
	}
	return false;
}

bool fw_scheduler_protocol_may_manage(
		struct fw_scheduler_protocol *sp, struct wl_client *client) {
	struct fw_client *record = fw_client_get(client);
	if (sp == NULL || record == NULL || !fw_client_identify(record)) {
		return false;
	}
	return (record->uid == 0 || record->uid == geteuid()) &&
			!fw_client_sandboxed(record) &&
			manager_exe_allowed(sp, record->process.path);
}

static struct fw_sp_manager *manager_from_resource(
		struct wl_resource *resource) {
	assert(wl_resource_instance_of(
			resource, &fairway_scheduler_manager_v1_interface, &manager_impl));
	return wl_resource_get_user_data(resource);
}

static void manager_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void manager_handle_subscribe_all(struct wl_client *client,
		struct wl_resource *resource, uint32_t period_ms) {
	struct fw_sp_manager *manager = manager_from_resource(resource);
	if (manager == NULL) {
		return;
	}
	if (!set_period(manager->sp, &manager->timer, &manager->period_ms,
				period_ms, handle_manager_timer, manager)) {
		wl_client_post_no_memory(client);
		return;
	}
	fairway_scheduler_manager_v1_send_period(resource, manager->period_ms);
}

static const struct fairway_scheduler_manager_v1_interface manager_impl = {
		.destroy = manager_handle_destroy,
		.subscribe_all = manager_handle_subscribe_all,
};

static void manager_resource_destroy(struct wl_resource *resource) {
	struct fw_sp_manager *manager = wl_resource_get_user_data(resource);
	if (manager == NULL) {
		return;
	}
	/* Its handles outlive it, inert but for set_priority. */
	struct fw_sp_handle *handle, *tmp;
	wl_list_for_each_safe(handle, tmp, &manager->handles, manager_link) {
		handle_unsubscribe(handle);
		handle->manager = NULL;
		wl_list_remove(&handle->manager_link);
		wl_list_init(&handle->manager_link);
	}
	if (manager->timer != NULL) {
		wl_event_source_remove(manager->timer);
	}
	wl_list_remove(&manager->link);
	free(manager);
}

static void manager_bind(
		struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct fw_scheduler_protocol *sp = data;
	struct wl_resource *resource = wl_resource_create(
			client, &fairway_scheduler_manager_v1_interface, version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	/* The global filter hides the global (lock/global_filter.c); this catches a
	 * client that binds it by its name all the same. */
	if (!fw_scheduler_protocol_may_manage(sp, client)) {
		wl_resource_set_implementation(resource, &manager_impl, NULL, NULL);
		wl_resource_post_error(resource,
				FAIRWAY_SCHEDULER_MANAGER_V1_ERROR_FORBIDDEN,
				"only the executables the configuration names (by "
				"default the installed fairway-top, or the one built "
				"beside fairway), of fairway's uid or root and in no "
				"sandbox, may watch every client");
		return;
	}
	struct fw_sp_manager *manager = calloc(1, sizeof(*manager));
	if (manager == NULL) {
		wl_resource_destroy(resource);
		wl_client_post_no_memory(client);
		return;
	}
	manager->sp = sp;
	manager->resource = resource;
	wl_list_init(&manager->handles);
	wl_resource_set_implementation(
			resource, &manager_impl, manager, manager_resource_destroy);
	if (!sp->following) {
		/* Oldest first, as if followed all along; announced below. */
		sp->following = true;
		gate_for_each_connection(sp->gate, add_existing, sp);
	}
	wl_list_insert(&sp->managers, &manager->link);
	/* Pids and app_ids are looked at again only while someone watches. */
	wl_event_source_timer_update(sp->identify, IDENTIFY_PERIOD_MS);
	struct fw_sp_client *sc;
	wl_list_for_each(sc, &sp->clients, link) {
		identify_process(sc);
		identify_app_ids(sc);
		announce(manager, sc);
	}
	fairway_scheduler_manager_v1_send_done(resource);
}

/* --- fairway_scheduler_self_v1 ------------------------------------------ */

static void self_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static void self_handle_lower_priority(struct wl_client *client,
		struct wl_resource *resource, int32_t priority) {
	assert(wl_resource_instance_of(
			resource, &fairway_scheduler_self_v1_interface, &self_impl));
	struct fw_scheduler_protocol *sp = wl_resource_get_user_data(resource);
	if (priority < SCHED_MIN_PRIORITY || priority > SCHED_MAX_PRIORITY) {
		wl_resource_post_error(resource,
				FAIRWAY_SCHEDULER_SELF_V1_ERROR_INVALID_PRIORITY,
				"priority %d is outside [%d, %d]", priority, SCHED_MIN_PRIORITY,
				SCHED_MAX_PRIORITY);
		return;
	}
	struct gate_connection *conn =
			sp != NULL ? gate_connection_from_client(client) : NULL;
	if (conn == NULL) {
		return;
	}
	struct gate_client_stats stats;
	gate_client_stats_read(conn, &stats);
	if (priority > stats.client_priority) {
		wl_resource_post_error(resource,
				FAIRWAY_SCHEDULER_SELF_V1_ERROR_NOT_LOWER,
				"priority %d is above the client's %d: only "
				"fairway_scheduler_manager_v1 raises it",
				priority, stats.client_priority);
		return;
	}
	/* No rule raises it again (app_rules.c). */
	struct fw_client *record = fw_client_get(client);
	if (record != NULL) {
		record->self_lowered = true;
		record->self_priority = priority;
	}
	fw_sched_set_client_priority(sp->server->sched, client, priority);
	fairway_scheduler_self_v1_send_priority(resource, priority);
}

static const struct fairway_scheduler_self_v1_interface self_impl = {
		.destroy = self_handle_destroy,
		.lower_priority = self_handle_lower_priority,
};

static void self_bind(
		struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct fw_scheduler_protocol *sp = data;
	struct wl_resource *resource = wl_resource_create(
			client, &fairway_scheduler_self_v1_interface, version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &self_impl, sp, NULL);
	struct gate_connection *conn = gate_connection_from_client(client);
	int priority = 0;
	if (conn != NULL) {
		struct gate_client_stats stats;
		gate_client_stats_read(conn, &stats);
		priority = stats.client_priority;
	}
	fairway_scheduler_self_v1_send_priority(resource, priority);
}

/* --- the whole ---------------------------------------------------------- */

struct fw_scheduler_protocol *fw_scheduler_protocol_create(
		struct fw_server *server, const struct fw_sched_config *config,
		fw_scheduler_protocol_app_ids_func app_ids) {
	struct gate *gate = fw_sched_get_gate(server->sched);
	if (gate == NULL) {
		wlr_log(WLR_INFO, "Scheduler off: no fairway_scheduler_manager_v1");
		return NULL;
	}
	struct fw_scheduler_protocol *sp = calloc(1, sizeof(*sp));
	if (sp == NULL) {
		goto error;
	}
	sp->server = server;
	sp->config = config;
	sp->build_top = fw_build_top_path();
	sp->app_ids = app_ids;
	sp->gate = gate;
	sp->records = fw_sched_get_clients(server->sched);
	wl_list_init(&sp->clients);
	wl_list_init(&sp->managers);
	sp->identify = wl_event_loop_add_timer(server->loop, handle_identify, sp);
	if (sp->identify == NULL) {
		goto error_free;
	}
	sp->manager_global = wl_global_create(server->display,
			&fairway_scheduler_manager_v1_interface, MANAGER_VERSION, sp,
			manager_bind);
	if (sp->manager_global == NULL) {
		goto error_timer;
	}
	sp->self_global = wl_global_create(server->display,
			&fairway_scheduler_self_v1_interface, SELF_VERSION, sp, self_bind);
	if (sp->self_global == NULL) {
		goto error_manager;
	}
	sp->new_connection.notify = handle_new_connection;
	gate_add_new_connection_listener(gate, &sp->new_connection);
	fw_listener_connect(&sp->client_destroy, &sp->records->events.destroy,
			handle_client_destroy);
	return sp;

error_manager:
	wl_global_destroy(sp->manager_global);
error_timer:
	wl_event_source_remove(sp->identify);
error_free:
	free(sp->build_top);
	free(sp);
error:
	wlr_log(WLR_ERROR, "Cannot offer fairway_scheduler_manager_v1");
	return NULL;
}

void fw_scheduler_protocol_destroy(struct fw_scheduler_protocol *sp) {
	if (sp == NULL) {
		return;
	}
	wl_global_destroy(sp->manager_global);
	wl_global_destroy(sp->self_global);
	wl_list_remove(&sp->new_connection.link);
	fw_listener_disconnect(&sp->client_destroy);
	/* Normally none is left: every client went first. */
	while (!wl_list_empty(&sp->managers)) {
		struct fw_sp_manager *manager =
				wl_container_of(sp->managers.next, manager, link);
		wl_resource_destroy(manager->resource);
	}
	while (!wl_list_empty(&sp->clients)) {
		struct fw_sp_client *sc = wl_container_of(sp->clients.next, sc, link);
		client_destroy(sc);
	}
	wl_event_source_remove(sp->identify);
	free(sp->build_top);
	free(sp);
}
