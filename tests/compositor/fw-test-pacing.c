/*
 * Misuses wp_commit_timing_v1 or wp_fifo_v1 as CASE names, and prints the
 * protocol error that came back: "error INTERFACE CODE" and exit 3, or
 * "no error" and exit 0; 1 when the globals are missing or the connection
 * failed otherwise.
 *
 * Two cases are no misuse: a surface that no output shows (it has no
 * role) commits a buffer, then another held by a fifo barrier
 * ("hidden-fifo") or a target time half a second ahead ("hidden-timing").
 * The second commit must be applied all the same, which the release of
 * the first buffer shows, and never before its target: "applied" and exit
 * 0, else "not applied" or "applied before its target" and exit 4.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "commit-timing-v1-client-protocol.h"
#include "fifo-v1-client-protocol.h"
#include "fw-test-buffer.h"
#include "fw-test-window.h"

#define HIDDEN_AHEAD_NS 500000000
#define HIDDEN_WAIT_MS 10000

struct globals {
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wp_commit_timing_manager_v1 *timing;
	struct wp_fifo_manager_v1 *fifo;
};

/* The two pacing globals; fw_test_window_connect binds the rest. */
static void bind_pacing(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version) {
	struct globals *g = data;
	if (strcmp(interface, wp_commit_timing_manager_v1_interface.name) == 0) {
		g->timing = wl_registry_bind(
				registry, name, &wp_commit_timing_manager_v1_interface, 1);
	} else if (strcmp(interface, wp_fifo_manager_v1_interface.name) == 0) {
		g->fifo = wl_registry_bind(
				registry, name, &wp_fifo_manager_v1_interface, 1);
	}
}

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

static int64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The no-misuse cases; -1 for another name. */
static int hidden(
		struct wl_display *display, struct globals *g, const char *name) {
	bool timing = strcmp(name, "hidden-timing") == 0;
	if (!timing && strcmp(name, "hidden-fifo") != 0) {
		return -1;
	}
	struct wl_list buffers;
	wl_list_init(&buffers);
	struct wl_surface *surface = wl_compositor_create_surface(g->compositor);
	struct wp_commit_timer_v1 *timer =
			wp_commit_timing_manager_v1_get_timer(g->timing, surface);
	struct wp_fifo_v1 *fifo = wp_fifo_manager_v1_get_fifo(g->fifo, surface);
	struct test_buffer *first =
			test_buffer_create(g->shm, &buffers, 64, 64, 0xff0000, 255);
	struct test_buffer *second =
			test_buffer_create(g->shm, &buffers, 64, 64, 0x00ff00, 255);
	if (first == NULL || second == NULL) {
		return 1;
	}
	wl_surface_attach(surface, first->wl_buffer, 0, 0);
	first->busy = true;
	wp_fifo_v1_set_barrier(fifo);
	wl_surface_commit(surface);
	if (wl_display_roundtrip(display) < 0 || !first->busy) {
		fprintf(stderr, "the first buffer was released unreplaced\n");
		return 1;
	}
	int64_t target = now_ns() + HIDDEN_AHEAD_NS;
	wl_surface_attach(surface, second->wl_buffer, 0, 0);
	second->busy = true;
	if (timing) {
		wp_commit_timer_v1_set_timestamp(timer, 0,
				(uint32_t)(target / 1000000000),
				(uint32_t)(target % 1000000000));
	} else {
		wp_fifo_v1_set_barrier(fifo);
		wp_fifo_v1_wait_barrier(fifo);
	}
	wl_surface_commit(surface);
	int64_t deadline = now_ns() + (int64_t)HIDDEN_WAIT_MS * 1000000;
	while (first->busy && now_ns() < deadline) {
		if (wl_display_flush(display) < 0) {
			return 1;
		}
		struct pollfd pfd = {
				.fd = wl_display_get_fd(display), .events = POLLIN};
		if (poll(&pfd, 1, 100) > 0 && wl_display_dispatch(display) < 0) {
			return 1;
		}
	}
	if (first->busy) {
		printf("not applied\n");
		return 4;
	}
	if (timing && now_ns() < target) {
		printf("applied before its target\n");
		return 4;
	}
	printf("applied\n");
	return 0;
}

int main(int argc, char *argv[]) {
	if (argc != 2) {
		fprintf(stderr, "usage: fw-test-pacing CASE\n");
		return 2;
	}
	struct globals g = {0};
	struct fw_test_globals common = {.bind = bind_pacing, .data = &g};
	if (!fw_test_window_connect(&common, "fw-test-pacing")) {
		return 1;
	}
	struct wl_display *display = common.display;
	g.compositor = common.compositor;
	g.shm = common.shm;
	if (g.compositor == NULL || g.shm == NULL || g.timing == NULL ||
			g.fifo == NULL) {
		fprintf(stderr, "missing globals\n");
		return 1;
	}
	int status = hidden(display, &g, argv[1]);
	if (status >= 0) {
		return status;
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
