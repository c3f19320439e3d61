/*
 * fw-test-scheduler: drives fairway-scheduler-unstable-v1 the ways the
 * tests need, well-formed or not, and prints what came back, one line
 * each. A protocol error prints "error INTERFACE CODE" and exits 3.
 *
 *   globals               "manager NAME" and "self NAME", those advertised
 *   see                   "client PID COMM" for each client the manager shows
 *   bind-manager NAME     binds the manager at registry name NAME
 *   set-priority PID N    sets the base priority of PID's connections
 *   lower N...            lowers its own priority to each N in turn
 *   lower-hold N          lowers its own priority to N, prints "lowered",
 *                         and stays connected until stdin ends, printing
 *                         each "priority P" fairway sends it
 *   period MS SECONDS     subscribe_all(MS): "period P", then after SECONDS
 *                         "rounds R elapsed_ms E"
 *   orphan PID N          subscribes to PID's statistics, destroys the
 *                         manager, prints "stats_after S" for the stats
 *                         that came in the next 500 ms, then sets PID's
 *                         priority to N through the orphaned handle
 *   stall N               opens N more connections, subscribes to every
 *                         client's statistics at 100 ms twice over (all,
 *                         and each), prints "stalled" and never reads again
 */
#include "fairway-scheduler-unstable-v1-client-protocol.h"
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

struct handle {
	struct fairway_scheduler_client_v1 *proxy;
	int pid;
	char comm[16];
};

#define MAX_HANDLES 256

static struct {
	struct wl_display *display;
	uint32_t manager_name, self_name;
	struct fairway_scheduler_manager_v1 *manager;
	struct fairway_scheduler_self_v1 *self;
	struct handle handles[MAX_HANDLES];
	int handle_count;
	bool announced;
	int rounds;
	int stats; /* stats events so far */
	int self_priority;
} t;

static int fail_protocol(void) {
	int err = wl_display_get_error(t.display);
	if (err == EPROTO) {
		const struct wl_interface *interface;
		uint32_t id;
		uint32_t code =
				wl_display_get_protocol_error(t.display, &interface, &id);
		printf("error %s %u\n", interface != NULL ? interface->name : "?",
				code);
	} else {
		printf("error connection %s\n", strerror(err));
	}
	return 3;
}

static void handle_info(void *data, struct fairway_scheduler_client_v1 *proxy,
		uint32_t id, int32_t pid, uint32_t uid, const char *comm,
		uint32_t flags) {
	struct handle *handle = data;
	handle->pid = pid;
	snprintf(handle->comm, sizeof(handle->comm), "%s", comm);
}

static void handle_app_id(void *data, struct fairway_scheduler_client_v1 *proxy,
		const char *app_id) {
}

static void handle_done(void *data, struct fairway_scheduler_client_v1 *proxy) {
}

static void handle_period(void *data, struct fairway_scheduler_client_v1 *proxy,
		uint32_t period_ms) {
}

static void handle_stats(void *data, struct fairway_scheduler_client_v1 *proxy,
		struct wl_array *values) {
	t.stats++;
}

static void handle_closed(
		void *data, struct fairway_scheduler_client_v1 *proxy) {
	struct handle *handle = data;
	handle->pid = -1;
}

static const struct fairway_scheduler_client_v1_listener handle_listener = {
		.info = handle_info,
		.app_id = handle_app_id,
		.done = handle_done,
		.period = handle_period,
		.stats = handle_stats,
		.closed = handle_closed,
};

static void manager_client(void *data,
		struct fairway_scheduler_manager_v1 *manager,
		struct fairway_scheduler_client_v1 *proxy) {
	if (t.handle_count == MAX_HANDLES) {
		return;
	}
	struct handle *handle = &t.handles[t.handle_count++];
	handle->proxy = proxy;
	fairway_scheduler_client_v1_add_listener(proxy, &handle_listener, handle);
}

static void manager_done(
		void *data, struct fairway_scheduler_manager_v1 *manager) {
	t.announced = true;
}

static void manager_period(void *data,
		struct fairway_scheduler_manager_v1 *manager, uint32_t period_ms) {
	printf("period %u\n", period_ms);
	fflush(stdout);
}

static void manager_round_done(
		void *data, struct fairway_scheduler_manager_v1 *manager) {
	t.rounds++;
}

static const struct fairway_scheduler_manager_v1_listener manager_listener = {
		.client = manager_client,
		.done = manager_done,
		.period = manager_period,
		.round_done = manager_round_done,
};

static void self_priority(
		void *data, struct fairway_scheduler_self_v1 *self, int32_t priority) {
	t.self_priority = priority;
	printf("priority %d\n", priority);
	fflush(stdout);
}

static const struct fairway_scheduler_self_v1_listener self_listener = {
		.priority = self_priority,
};

static void registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	if (strcmp(interface, fairway_scheduler_manager_v1_interface.name) == 0) {
		t.manager_name = name;
	} else if (strcmp(interface, fairway_scheduler_self_v1_interface.name) ==
			0) {
		t.self_name = name;
	}
}

static void registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = registry_global,
		.global_remove = registry_global_remove,
};

static int bind_manager(struct wl_registry *registry, uint32_t name) {
	t.manager = wl_registry_bind(
			registry, name, &fairway_scheduler_manager_v1_interface, 1);
	fairway_scheduler_manager_v1_add_listener(
			t.manager, &manager_listener, NULL);
	while (!t.announced) {
		if (wl_display_dispatch(t.display) < 0) {
			return fail_protocol();
		}
	}
	return 0;
}

static double now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Dispatches whatever comes for ms milliseconds; false on an error. */
static bool dispatch_for(double ms) {
	double end = now_ms() + ms;
	for (double left = ms; left > 0; left = end - now_ms()) {
		while (wl_display_prepare_read(t.display) != 0) {
			if (wl_display_dispatch_pending(t.display) < 0) {
				return false;
			}
		}
		wl_display_flush(t.display);
		struct pollfd pfd = {
				.fd = wl_display_get_fd(t.display), .events = POLLIN};
		if (poll(&pfd, 1, (int)left + 1) > 0) {
			if (wl_display_read_events(t.display) < 0) {
				return false;
			}
		} else {
			wl_display_cancel_read(t.display);
		}
		if (wl_display_dispatch_pending(t.display) < 0) {
			return false;
		}
	}
	return true;
}

/* Binds fairway_scheduler_self_v1; false, saying so, where it is not. */
static bool bind_self(struct wl_registry *registry) {
	if (t.self_name == 0) {
		printf("no self\n");
		return false;
	}
	t.self = wl_registry_bind(
			registry, t.self_name, &fairway_scheduler_self_v1_interface, 1);
	fairway_scheduler_self_v1_add_listener(t.self, &self_listener, NULL);
	return true;
}

/* Serves the connection until stdin ends: 0, or a protocol error. */
static int hold_until_stdin_ends(void) {
	for (;;) {
		while (wl_display_prepare_read(t.display) != 0) {
			if (wl_display_dispatch_pending(t.display) < 0) {
				return fail_protocol();
			}
		}
		wl_display_flush(t.display);
		struct pollfd fds[] = {
				{.fd = wl_display_get_fd(t.display), .events = POLLIN},
				{.fd = STDIN_FILENO, .events = POLLIN},
		};
		if (poll(fds, 2, -1) < 0) {
			wl_display_cancel_read(t.display);
			continue;
		}
		if (fds[0].revents != 0) {
			if (wl_display_read_events(t.display) < 0) {
				return fail_protocol();
			}
		} else {
			wl_display_cancel_read(t.display);
		}
		if (wl_display_dispatch_pending(t.display) < 0) {
			return fail_protocol();
		}
		char buf[64];
		if (fds[1].revents != 0 && read(STDIN_FILENO, buf, sizeof(buf)) <= 0) {
			return 0;
		}
	}
}

static int usage(void) {
	fprintf(stderr,
			"usage: fw-test-scheduler globals|see|bind-manager "
			"NAME|set-priority PID N|lower N...|lower-hold N|period MS "
			"SECONDS\n");
	return 2;
}

static int run(int argc, char **argv, struct wl_registry *registry) {
	const char *mode = argv[1];
	if (strcmp(mode, "globals") == 0) {
		if (t.manager_name != 0) {
			printf("manager %u\n", t.manager_name);
		}
		if (t.self_name != 0) {
			printf("self %u\n", t.self_name);
		}
		return 0;
	}
	if (strcmp(mode, "bind-manager") == 0 && argc == 3) {
		int status = bind_manager(registry, (uint32_t)atoi(argv[2]));
		if (status == 0) {
			printf("bound, %d clients\n", t.handle_count);
		}
		return status;
	}
	if (t.manager_name == 0 && strncmp(mode, "lower", 5) != 0) {
		printf("no manager\n");
		return 1;
	}
	if (strcmp(mode, "see") == 0) {
		int status = bind_manager(registry, t.manager_name);
		for (int i = 0; status == 0 && i < t.handle_count; i++) {
			printf("client %d %s\n", t.handles[i].pid, t.handles[i].comm);
		}
		return status;
	}
	if (strcmp(mode, "set-priority") == 0 && argc == 4) {
		int status = bind_manager(registry, t.manager_name);
		int pid = atoi(argv[2]), found = 0;
		for (int i = 0; status == 0 && i < t.handle_count; i++) {
			if (t.handles[i].pid == pid) {
				fairway_scheduler_client_v1_set_priority(
						t.handles[i].proxy, atoi(argv[3]));
				found++;
			}
		}
		if (status != 0 || wl_display_roundtrip(t.display) < 0) {
			return fail_protocol();
		}
		printf("set %d\n", found);
		return found > 0 ? 0 : 1;
	}
	if (strcmp(mode, "lower") == 0 && argc >= 3) {
		if (!bind_self(registry)) {
			return 1;
		}
		if (wl_display_roundtrip(t.display) < 0) {
			return fail_protocol();
		}
		for (int i = 2; i < argc; i++) {
			fairway_scheduler_self_v1_lower_priority(t.self, atoi(argv[i]));
			if (wl_display_roundtrip(t.display) < 0) {
				return fail_protocol();
			}
		}
		return 0;
	}
	if (strcmp(mode, "lower-hold") == 0 && argc == 3) {
		/* Lowers itself, says so, and stays until stdin ends. */
		if (!bind_self(registry)) {
			return 1;
		}
		fairway_scheduler_self_v1_lower_priority(t.self, atoi(argv[2]));
		if (wl_display_roundtrip(t.display) < 0) {
			return fail_protocol();
		}
		printf("lowered\n");
		fflush(stdout);
		return hold_until_stdin_ends();
	}
	if (strcmp(mode, "period") == 0 && argc == 4) {
		int status = bind_manager(registry, t.manager_name);
		if (status != 0) {
			return status;
		}
		fairway_scheduler_manager_v1_subscribe_all(
				t.manager, (uint32_t)atoll(argv[2]));
		if (wl_display_roundtrip(t.display) < 0) {
			return fail_protocol();
		}
		double start = now_ms(), end = start + atof(argv[3]) * 1e3;
		while (now_ms() < end) {
			if (wl_display_dispatch(t.display) < 0) {
				return fail_protocol();
			}
		}
		printf("rounds %d elapsed_ms %.0f\n", t.rounds, now_ms() - start);
		return 0;
	}
	if (strcmp(mode, "orphan") == 0 && argc == 4) {
		int status = bind_manager(registry, t.manager_name);
		int pid = atoi(argv[2]);
		struct handle *mine = NULL;
		for (int i = 0; status == 0 && i < t.handle_count; i++) {
			if (t.handles[i].pid == pid) {
				mine = &t.handles[i];
			}
		}
		if (status != 0 || mine == NULL) {
			printf("no client %d\n", pid);
			return status != 0 ? status : 1;
		}
		fairway_scheduler_client_v1_subscribe(mine->proxy, 100);
		while (t.stats == 0) {
			if (wl_display_dispatch(t.display) < 0) {
				return fail_protocol();
			}
		}
		fairway_scheduler_manager_v1_destroy(t.manager);
		t.manager = NULL;
		if (wl_display_roundtrip(t.display) < 0) {
			return fail_protocol();
		}
		int before = t.stats;
		fairway_scheduler_client_v1_subscribe(mine->proxy, 100);
		if (!dispatch_for(500)) {
			return fail_protocol();
		}
		printf("stats_after %d\n", t.stats - before);
		fairway_scheduler_client_v1_set_priority(mine->proxy, atoi(argv[3]));
		if (wl_display_roundtrip(t.display) < 0) {
			return fail_protocol();
		}
		printf("set\n");
		return 0;
	}
	if (strcmp(mode, "stall") == 0 && argc == 3) {
		int extra = atoi(argv[2]);
		for (int i = 0; i < extra; i++) {
			struct wl_display *other = wl_display_connect(NULL);
			if (other == NULL || wl_display_roundtrip(other) < 0) {
				printf("cannot open connection %d\n", i);
				return 1;
			}
			/* Left open until exit: they are the clients to report. */
		}
		int status = bind_manager(registry, t.manager_name);
		if (status != 0) {
			return status;
		}
		fairway_scheduler_manager_v1_subscribe_all(t.manager, 100);
		for (int i = 0; i < t.handle_count; i++) {
			fairway_scheduler_client_v1_subscribe(t.handles[i].proxy, 100);
		}
		if (wl_display_flush(t.display) < 0) {
			return fail_protocol();
		}
		printf("stalled with %d clients\n", t.handle_count);
		fflush(stdout);
		for (;;) {
			pause();
		}
	}
	return usage();
}

int main(int argc, char **argv) {
	if (argc < 2) {
		return usage();
	}
	t.display = wl_display_connect(NULL);
	if (t.display == NULL) {
		fprintf(stderr, "fw-test-scheduler: cannot connect: %s\n",
				strerror(errno));
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(t.display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	if (wl_display_roundtrip(t.display) < 0) {
		return fail_protocol();
	}
	int status = run(argc, argv, registry);
	fflush(stdout);
	for (int i = 0; i < t.handle_count; i++) {
		fairway_scheduler_client_v1_destroy(t.handles[i].proxy);
	}
	if (t.manager != NULL) {
		fairway_scheduler_manager_v1_destroy(t.manager);
	}
	if (t.self != NULL) {
		fairway_scheduler_self_v1_destroy(t.self);
	}
	wl_registry_destroy(registry);
	wl_display_disconnect(t.display);
	return status;
}
