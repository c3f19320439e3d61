/*
 * fairway-idle: many connected clients that do nothing. Each connection
 * binds wl_compositor and creates one surface, so the compositor holds a
 * realistic minimum of state per client; then all of them sit silent
 * until the end. The bench uses it to measure per-client memory and
 * whether idle connections slow everyone else down.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "clients/common/json.h"
#include "clients/common/options.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"

struct idle_conn {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_surface *surface;
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct idle_conn *conn = data;
	if (conn->compositor == NULL &&
			strcmp(interface, wl_compositor_interface.name) == 0) {
		conn->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	/* An idle client ignores globals going away, as a sleeping app would. */
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

/* Returns 0 on success, 1 when wl_compositor is missing, -1 on error. */
static int conn_open(struct idle_conn *conn, const char *prog) {
	conn->display = wl_display_connect(NULL);
	if (conn->display == NULL) {
		fprintf(stderr, "%s: cannot connect to the Wayland display\n", prog);
		return -1;
	}
	conn->registry = wl_display_get_registry(conn->display);
	if (conn->registry == NULL) {
		return -1;
	}
	wl_registry_add_listener(conn->registry, &registry_listener, conn);
	if (wl_display_roundtrip(conn->display) < 0) {
		return -1;
	}
	if (conn->compositor == NULL) {
		fprintf(stderr, "%s: compositor lacks wl_compositor\n", prog);
		return 1;
	}
	conn->surface = wl_compositor_create_surface(conn->compositor);
	if (conn->surface == NULL) {
		return -1;
	}
	/* The round trip makes sure the compositor has created the surface. */
	return wl_display_roundtrip(conn->display) < 0 ? -1 : 0;
}

static void conn_close(struct idle_conn *conn) {
	if (conn->surface != NULL) {
		wl_surface_destroy(conn->surface);
	}
	if (conn->compositor != NULL) {
		wl_compositor_destroy(conn->compositor);
	}
	if (conn->registry != NULL) {
		wl_registry_destroy(conn->registry);
	}
	if (conn->display != NULL) {
		wl_display_disconnect(conn->display);
	}
}

int main(int argc, char **argv) {
	double duration = 5;
	unsigned count = 10;
	const struct fw_option options[] = {
			{"duration", FW_OPTION_DOUBLE, &duration, "SECONDS",
					"how long to hold the connections (default 5)", 0, NULL},
			{"connections", FW_OPTION_UINT, &count, "N",
					"connections to open (default 10)", 1, NULL},
	};
	const struct fw_program prog = {
			.name = "fairway-idle",
			.summary = "Holds N idle connections, each with one surface; "
					   "prints a JSON summary.",
			.options = options,
			.option_count = sizeof(options) / sizeof(options[0]),
	};
	fw_options_parse(&prog, argc, argv);
	fw_stop_install();

	struct idle_conn *conns = calloc(count, sizeof(*conns));
	if (conns == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog.name);
		return 1;
	}
	int ret = 1;
	unsigned opened = 0;
	uint64_t start = fw_now_ns();
	for (; opened < count && !fw_stop_requested(); opened++) {
		int r = conn_open(&conns[opened], prog.name);
		if (r != 0) {
			opened++; /* conn_close must still free what was set up */
			goto out;
		}
	}
	uint64_t setup_ns = fw_now_ns() - start;

	/* The readiness line lets a harness measure the compositor while all
	 * connections are held; the JSON summary stays the last line. */
	printf("ready %u\n", opened);
	fflush(stdout);

	uint64_t hold_start = fw_now_ns();
	uint64_t end = hold_start + (uint64_t)(duration * 1e9);
	while (!fw_stop_requested() && fw_now_ns() < end) {
		uint64_t now = fw_now_ns();
		uint64_t slice = 100000000u;
		fw_sleep_ns(end - now < slice ? end - now : slice);
	}
	uint64_t hold_ns = fw_now_ns() - hold_start;

	struct fw_json json;
	fw_json_begin(&json, stdout);
	fw_json_string(&json, "client", "idle");
	fw_json_uint(&json, "connections", opened);
	fw_json_double(&json, "setup_ms", fw_ns_to_ms((int64_t)setup_ns));
	fw_json_double(&json, "seconds", (double)hold_ns / 1e9);
	fw_json_end(&json);
	ret = 0;

out:
	for (unsigned i = 0; i < opened; i++) {
		conn_close(&conns[i]);
	}
	free(conns);
	return ret;
}
