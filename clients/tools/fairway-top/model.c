#include "clients/tools/fairway-top/model.h"
#include "fairway-scheduler-unstable-v1-client-protocol.h"
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STAT(name) FAIRWAY_SCHEDULER_CLIENT_V1_STAT_##name

static void append_app_id(char *list, size_t size, const char *id) {
	size_t len = strlen(list);
	snprintf(list + len, size - len, "%s%s", len > 0 ? "," : "", id);
}

static void handle_info(void *data, struct fairway_scheduler_client_v1 *handle,
		uint32_t id, int32_t pid, uint32_t uid, const char *comm,
		uint32_t flags) {
	struct top_client *client = data;
	client->id = id;
	client->pid = pid;
	client->uid = uid;
	snprintf(client->comm, sizeof(client->comm), "%s", comm);
	client->flags = flags;
	client->pending_app_ids[0] = '\0';
}

static void handle_app_id(void *data,
		struct fairway_scheduler_client_v1 *handle, const char *app_id) {
	struct top_client *client = data;
	append_app_id(
			client->pending_app_ids, sizeof(client->pending_app_ids), app_id);
}

static void handle_done(
		void *data, struct fairway_scheduler_client_v1 *handle) {
	struct top_client *client = data;
	memcpy(client->app_ids, client->pending_app_ids, sizeof(client->app_ids));
}

static void handle_period(void *data,
		struct fairway_scheduler_client_v1 *handle, uint32_t period_ms) {
	/* fairway-top subscribes through the manager only. */
}

static void handle_stats(void *data, struct fairway_scheduler_client_v1 *handle,
		struct wl_array *values) {
	struct top_client *client = data;
	if (client->has_cur) {
		memcpy(client->prev, client->cur, sizeof(client->cur));
		client->has_prev = true;
	}
	size_t count = values->size / sizeof(int64_t);
	if (count > TOP_STAT_COUNT) {
		count = TOP_STAT_COUNT;
	}
	/* Values an older fairway does not send read as unknown. */
	for (size_t i = 0; i < TOP_STAT_COUNT; i++) {
		client->cur[i] = -1;
	}
	memcpy(client->cur, values->data, count * sizeof(int64_t));
	client->has_cur = true;
}

static void client_free(struct top_client *client) {
	fairway_scheduler_client_v1_destroy(client->handle);
	wl_list_remove(&client->link);
	free(client);
}

static void handle_closed(
		void *data, struct fairway_scheduler_client_v1 *handle) {
	client_free(data);
}

static const struct fairway_scheduler_client_v1_listener client_listener = {
		.info = handle_info,
		.app_id = handle_app_id,
		.done = handle_done,
		.period = handle_period,
		.stats = handle_stats,
		.closed = handle_closed,
};

static void manager_handle_client(void *data,
		struct fairway_scheduler_manager_v1 *manager,
		struct fairway_scheduler_client_v1 *handle) {
	struct top_model *model = data;
	struct top_client *client = calloc(1, sizeof(*client));
	if (client == NULL) {
		/* Forgotten: its events go to a handle without a listener. */
		fairway_scheduler_client_v1_destroy(handle);
		return;
	}
	client->handle = handle;
	fairway_scheduler_client_v1_add_listener(handle, &client_listener, client);
	wl_list_insert(model->clients.prev, &client->link);
}

static void manager_handle_done(
		void *data, struct fairway_scheduler_manager_v1 *manager) {
	struct top_model *model = data;
	model->announced = true;
}

static void manager_handle_period(void *data,
		struct fairway_scheduler_manager_v1 *manager, uint32_t period_ms) {
	struct top_model *model = data;
	model->period_ms = period_ms;
}

static double per_second(const struct top_client *client, int stat) {
	double dt =
			(client->cur[STAT(TIME_NS)] - client->prev[STAT(TIME_NS)]) / 1e9;
	if (dt <= 0) {
		return 0;
	}
	return (client->cur[stat] - client->prev[stat]) / dt;
}

/* Rates between each client's last two snapshots. */
static void manager_handle_round_done(
		void *data, struct fairway_scheduler_manager_v1 *manager) {
	struct top_model *model = data;
	double total = 0;
	struct top_client *client;
	wl_list_for_each(client, &model->clients, link) {
		client->has_rates = client->has_cur && client->has_prev;
		if (!client->has_rates) {
			client->requests_per_s = client->events_per_s = 0;
			client->dispatch_ms_per_s = client->dispatch_share = 0;
			continue;
		}
		client->requests_per_s = per_second(client, STAT(REQUESTS));
		client->events_per_s = per_second(client, STAT(EVENTS));
		client->dispatch_ms_per_s = per_second(client, STAT(DISPATCH_NS)) / 1e6;
		total += client->dispatch_ms_per_s;
	}
	wl_list_for_each(client, &model->clients, link) {
		client->dispatch_share =
				total > 0 ? client->dispatch_ms_per_s / total : 0;
	}
	model->rounds++;
}

static const struct fairway_scheduler_manager_v1_listener manager_listener = {
		.client = manager_handle_client,
		.done = manager_handle_done,
		.period = manager_handle_period,
		.round_done = manager_handle_round_done,
};

static void registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct top_model *model = data;
	if (strcmp(interface, fairway_scheduler_manager_v1_interface.name) == 0 &&
			model->manager == NULL) {
		/* Version 2 adds each application's processes and group. */
		model->manager = wl_registry_bind(registry, name,
				&fairway_scheduler_manager_v1_interface,
				version < 2 ? version : 2);
		fairway_scheduler_manager_v1_add_listener(
				model->manager, &manager_listener, model);
	}
}

static void registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = registry_global,
		.global_remove = registry_global_remove,
};

static bool report_error(struct top_model *model) {
	int err = wl_display_get_error(model->display);
	if (err == EPROTO) {
		const struct wl_interface *interface;
		uint32_t id;
		uint32_t code =
				wl_display_get_protocol_error(model->display, &interface, &id);
		fprintf(stderr, "%s: protocol error %u on %s@%u\n", model->prog, code,
				interface != NULL ? interface->name : "?", id);
	} else {
		fprintf(stderr, "%s: connection to fairway lost: %s\n", model->prog,
				strerror(err != 0 ? err : EPIPE));
	}
	return false;
}

/*
 * fairway hides its manager from every program but those it trusts, so
 * the likeliest cause is who we are, not what the compositor is.
 */
static void report_no_manager(const char *prog) {
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[len > 0 ? len : 0] = '\0';
	fprintf(stderr,
			"%s: the compositor offers no %s to %s.\n"
			"fairway offers it only to programs of its own user (or root) "
			"that it trusts:\nthe installed fairway-top (%s), the "
			"fairway-top built beside a fairway run from its\nbuild tree "
			"(BUILD/clients/fairway-top for BUILD/compositor/fairway), and "
			"those its\nconfiguration's 'scheduler manager' line names "
			"(fairway(5)). Or the compositor\nruns --scheduler off, or is "
			"not fairway.\n",
			prog, fairway_scheduler_manager_v1_interface.name,
			len > 0 ? self : "this program", FW_TOP_PATH);
}

bool top_model_init(
		struct top_model *model, const char *prog, uint32_t period_ms) {
	*model = (struct top_model){.prog = prog};
	wl_list_init(&model->clients);
	model->display = wl_display_connect(NULL);
	if (model->display == NULL) {
		fprintf(stderr, "%s: cannot connect to a Wayland compositor: %s\n",
				prog, strerror(errno));
		return false;
	}
	model->registry = wl_display_get_registry(model->display);
	wl_registry_add_listener(model->registry, &registry_listener, model);
	if (wl_display_roundtrip(model->display) < 0) {
		return report_error(model);
	}
	if (model->manager == NULL) {
		report_no_manager(prog);
		return false;
	}
	while (!model->announced) {
		if (wl_display_dispatch(model->display) < 0) {
			return report_error(model);
		}
	}
	fairway_scheduler_manager_v1_subscribe_all(model->manager, period_ms);
	if (wl_display_roundtrip(model->display) < 0) {
		return report_error(model);
	}
	return true;
}

void top_model_finish(struct top_model *model) {
	if (model->display == NULL) {
		return;
	}
	while (!wl_list_empty(&model->clients)) {
		struct top_client *client =
				wl_container_of(model->clients.next, client, link);
		client_free(client);
	}
	if (model->manager != NULL) {
		fairway_scheduler_manager_v1_destroy(model->manager);
	}
	wl_registry_destroy(model->registry);
	wl_display_disconnect(model->display);
	model->display = NULL;
}

bool top_model_dispatch(
		struct top_model *model, int extra_fd, bool *extra_ready) {
	struct wl_display *display = model->display;
	while (wl_display_prepare_read(display) != 0) {
		if (wl_display_dispatch_pending(display) < 0) {
			return report_error(model);
		}
	}
	if (wl_display_flush(display) < 0 && errno != EAGAIN) {
		wl_display_cancel_read(display);
		return report_error(model);
	}
	struct pollfd pfds[2] = {
			{.fd = wl_display_get_fd(display), .events = POLLIN},
			{.fd = extra_fd, .events = POLLIN},
	};
	int ready = poll(pfds, extra_fd >= 0 ? 2 : 1, -1);
	if (extra_ready != NULL) {
		*extra_ready = ready > 0 && extra_fd >= 0 &&
				(pfds[1].revents & (POLLIN | POLLHUP)) != 0;
	}
	if (ready > 0 && (pfds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
		if (wl_display_read_events(display) < 0) {
			return report_error(model);
		}
	} else {
		wl_display_cancel_read(display);
	}
	if (wl_display_dispatch_pending(display) < 0) {
		return report_error(model);
	}
	return true;
}

static int64_t queued(const struct top_client *client) {
	return client->cur[STAT(QUEUED_REQUEST_BYTES)] +
			client->cur[STAT(QUEUED_EVENT_BYTES)];
}

/* Descending by key, then by id: a stable order between refreshes. */
static double sort_key(const struct top_client *client, enum top_sort sort) {
	switch (sort) {
	case TOP_SORT_DISPATCH:
		return client->dispatch_ms_per_s;
	case TOP_SORT_RATE:
		return client->requests_per_s;
	case TOP_SORT_QUEUE:
		return (double)queued(client);
	case TOP_SORT_CLASS:
		return (double)client->cur[STAT(CLASS)];
	case TOP_SORT_PRIORITY:
		/* The base priority first, as the scheduler compares them. */
		return client->cur[STAT(BASE_PRIORITY)] * 100.0 +
				client->cur[STAT(SMART_PRIORITY)];
	case TOP_SORT_COUNT:
		break;
	}
	return 0;
}

static enum top_sort current_sort;

static int compare_clients(const void *a, const void *b) {
	const struct top_client *x = *(struct top_client *const *)a;
	const struct top_client *y = *(struct top_client *const *)b;
	double kx = sort_key(x, current_sort), ky = sort_key(y, current_sort);
	if (kx != ky) {
		return kx > ky ? -1 : 1;
	}
	return x->id < y->id ? -1 : x->id > y->id;
}

struct top_client **top_model_sorted(
		struct top_model *model, enum top_sort sort, size_t *count) {
	size_t n = (size_t)wl_list_length(&model->clients);
	struct top_client **rows = calloc(n > 0 ? n : 1, sizeof(*rows));
	if (rows == NULL) {
		*count = 0;
		return NULL;
	}
	size_t i = 0;
	struct top_client *client;
	wl_list_for_each(client, &model->clients, link) {
		if (client->has_cur) {
			rows[i++] = client;
		}
	}
	current_sort = sort;
	qsort(rows, i, sizeof(*rows), compare_clients);
	*count = i;
	return rows;
}

void top_client_set_priority(struct top_client *client, int value) {
	value = value < -20 ? -20 : value > 20 ? 20 : value;
	fairway_scheduler_client_v1_set_priority(client->handle, value);
	/* Shown at once; the next stats confirm it. */
	client->cur[STAT(BASE_PRIORITY)] = value;
}

int top_model_set_pid_priority(struct top_model *model, pid_t pid, int value) {
	int found = 0;
	struct top_client *client;
	wl_list_for_each(client, &model->clients, link) {
		if (client->pid == pid) {
			fairway_scheduler_client_v1_set_priority(client->handle, value);
			found++;
		}
	}
	return found;
}

const char *top_class_name(int64_t class) {
	static const char *const names[] = {
			"background", "idle", "output", "interactive"};
	if (class < 0 || class >= (int64_t)(sizeof(names) / sizeof(names[0]))) {
		return "-";
	}
	return names[class];
}

const char *top_sort_name(enum top_sort sort) {
	static const char *const names[] = {
			"dispatch", "rate", "queue", "class", "priority"};
	return sort < TOP_SORT_COUNT ? names[sort] : "?";
}
