/*
 * Makes a known number of round trips, for the trace analysis's tests
 * (fairway-trace-summary). Plain: N times wl_display_roundtrip, the first
 * one for the registry's globals, each later one after requests that need
 * no answer (a surface made and destroyed). --pipelined: N wl_display.sync
 * sent in one flush with the registry request, then every answer awaited:
 * one round trip, however many answers. Prints "done N" at the end.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

struct state {
	struct wl_compositor *compositor;
	int answered;
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct state *state = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0 &&
			state->compositor == NULL) {
		state->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	// Nothing here outlives the run.
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

static void handle_done(
		void *data, struct wl_callback *callback, uint32_t serial) {
	struct state *state = data;
	state->answered++;
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener callback_listener = {
		.done = handle_done,
};

static const char usage[] =
		"usage: fw-test-roundtrips [--pipelined] N\n"
		"Makes N round trips (wl_display_roundtrip), or with --pipelined\n"
		"sends N wl_display.sync at once and waits for all their answers.\n";

int main(int argc, char **argv) {
	bool pipelined = argc == 3 && strcmp(argv[1], "--pipelined") == 0;
	char *end = NULL;
	long n = argc >= 2 ? strtol(argv[argc - 1], &end, 10) : 0;
	if (argc != 2 + pipelined || end == argv[argc - 1] || *end != '\0' ||
			n < 1 || n > 100000) {
		fputs(usage, stderr);
		return 2;
	}
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-test-roundtrips: cannot connect\n");
		return 1;
	}
	struct state state = {0};
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &state);
	int status = 0;
	if (pipelined) {
		for (long i = 0; i < n; i++) {
			struct wl_callback *callback = wl_display_sync(display);
			wl_callback_add_listener(callback, &callback_listener, &state);
		}
		while (state.answered < n && status >= 0) {
			status = wl_display_dispatch(display);
		}
	} else {
		for (long i = 0; i < n && status >= 0; i++) {
			if (state.compositor != NULL) {
				wl_surface_destroy(
						wl_compositor_create_surface(state.compositor));
			}
			status = wl_display_roundtrip(display);
		}
	}
	if (status < 0) {
		fprintf(stderr, "fw-test-roundtrips: connection lost\n");
		return 1;
	}
	printf("done %ld\n", n);
	if (state.compositor != NULL) {
		wl_compositor_destroy(state.compositor);
	}
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return 0;
}
