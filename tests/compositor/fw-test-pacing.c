/*
 * Misuses wp_commit_timing_v1 or wp_fifo_v1 as CASE names, and prints the
 * protocol error that came back: "error INTERFACE CODE" and exit 3, or
 * "no error" and exit 0; 1 when the globals are missing or the connection
 * failed otherwise.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wayland-client.h>

#include "commit-timing-v1-client-protocol.h"
#include "fifo-v1-client-protocol.h"

struct globals {
	struct wl_compositor *compositor;
	struct wp_commit_timing_manager_v1 *timing;
	struct wp_fifo_manager_v1 *fifo;
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct globals *g = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		g->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wp_commit_timing_manager_v1_interface.name) ==
			0) {
		g->timing = wl_registry_bind(
				registry, name, &wp_commit_timing_manager_v1_interface, 1);
	} else if (strcmp(interface, wp_fifo_manager_v1_interface.name) == 0) {
		g->fifo = wl_registry_bind(
				registry, name, &wp_fifo_manager_v1_interface, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

/* Sends what CASE names; false for an unknown one. */
static int misuse(struct globals *g, const char *name) {
	struct wl_surface *surface = wl_compositor_create_surface(g->compositor);
	if (strcmp(name, "timestamp-exists") == 0) {
		struct wp_commit_timer_v1 *timer =
				wp_commit_timing_manager_v1_get_timer(g->timing, surface);
		wp_commit_timer_v1_set_timestamp(timer, 0, 1, 0);
		wp_commit_timer_v1_set_timestamp(timer, 0, 2, 0);
	} else if (strcmp(name, "invalid-timestamp") == 0) {
		struct wp_commit_timer_v1 *timer =
				wp_commit_timing_manager_v1_get_timer(g->timing, surface);
		wp_commit_timer_v1_set_timestamp(timer, 0, 1, 1000000000);
	} else if (strcmp(name, "timer-exists") == 0) {
		wp_commit_timing_manager_v1_get_timer(g->timing, surface);
		wp_commit_timing_manager_v1_get_timer(g->timing, surface);
	} else if (strcmp(name, "timer-destroyed") == 0) {
		struct wp_commit_timer_v1 *timer =
				wp_commit_timing_manager_v1_get_timer(g->timing, surface);
		wl_surface_destroy(surface);
		wp_commit_timer_v1_set_timestamp(timer, 0, 1, 0);
	} else if (strcmp(name, "timer-reused") == 0) {
		/* Allowed: a second timer once the first is gone. */
		struct wp_commit_timer_v1 *timer =
				wp_commit_timing_manager_v1_get_timer(g->timing, surface);
		wp_commit_timer_v1_destroy(timer);
		timer = wp_commit_timing_manager_v1_get_timer(g->timing, surface);
		wp_commit_timer_v1_set_timestamp(timer, 0, 1, 0);
		wl_surface_commit(surface);
	} else if (strcmp(name, "fifo-exists") == 0) {
		wp_fifo_manager_v1_get_fifo(g->fifo, surface);
		wp_fifo_manager_v1_get_fifo(g->fifo, surface);
	} else if (strcmp(name, "fifo-destroyed") == 0) {
		struct wp_fifo_v1 *fifo = wp_fifo_manager_v1_get_fifo(g->fifo, surface);
		wl_surface_destroy(surface);
		wp_fifo_v1_wait_barrier(fifo);
	} else {
		return 0;
	}
	return 1;
}

int main(int argc, char *argv[]) {
	if (argc != 2) {
		fprintf(stderr, "usage: fw-test-pacing CASE\n");
		return 2;
	}
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "cannot connect\n");
		return 1;
	}
	struct globals g = {0};
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &g);
	if (wl_display_roundtrip(display) < 0 || g.compositor == NULL ||
			g.timing == NULL || g.fifo == NULL) {
		fprintf(stderr, "missing globals\n");
		return 1;
	}
	if (!misuse(&g, argv[1])) {
		fprintf(stderr, "unknown case %s\n", argv[1]);
		return 2;
	}
	if (wl_display_roundtrip(display) >= 0) {
		printf("no error\n");
		return 0;
	}
	if (wl_display_get_error(display) != EPROTO) {
		fprintf(stderr, "connection failed: %s\n",
				strerror(wl_display_get_error(display)));
		return 1;
	}
	const struct wl_interface *interface;
	uint32_t code = wl_display_get_protocol_error(display, &interface, NULL);
	printf("error %s %u\n", interface != NULL ? interface->name : "?", code);
	return 3;
}
