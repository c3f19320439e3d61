/*
 * Drives a zwlr_virtual_pointer_v1 from command-line steps so shell tests can
 * click and drag in a headless compositor. After every step it waits for a
 * roundtrip, so the compositor has handled the step before the next starts.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/input-event-codes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

// Generous: the steps run on loaded CI machines.
#define AWAIT_TIMEOUT_MS 30000
#define AWAIT_POLL_MS 20

struct pointer_tool {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_seat *seat;
	struct zwlr_virtual_pointer_manager_v1 *manager;
	struct zwlr_virtual_pointer_v1 *pointer;
	uint32_t extent_width, extent_height;
};

static void handle_registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct pointer_tool *tool = data;
	if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) ==
			0) {
		tool->manager = wl_registry_bind(
				registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 &&
			tool->seat == NULL) {
		tool->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
	}
}

static void handle_registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	// Nothing this tool binds goes away during a test.
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_registry_global,
		.global_remove = handle_registry_global_remove,
};

static int64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms) {
	struct timespec ts = {
			.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
		// Sleep out the rest.
	}
}

static bool parse_uint(const char *arg, uint32_t *out) {
	char *end;
	errno = 0;
	unsigned long value = strtoul(arg, &end, 10);
	if (arg[0] == '\0' || arg[0] == '-' || *end != '\0' || errno != 0 ||
			value > UINT32_MAX) {
		return false;
	}
	*out = value;
	return true;
}

static bool parse_button(const char *arg, uint32_t *button) {
	if (strcmp(arg, "left") == 0) {
		*button = BTN_LEFT;
	} else if (strcmp(arg, "right") == 0) {
		*button = BTN_RIGHT;
	} else if (strcmp(arg, "middle") == 0) {
		*button = BTN_MIDDLE;
	} else {
		return parse_uint(arg, button);
	}
	return true;
}

static bool file_contains(const char *path, const char *needle) {
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		return false;
	}
	char line[1024];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		found = strstr(line, needle) != NULL;
	}
	fclose(f);
	return found;
}

/*
 * Scripts need to wait for a client's reaction (say, that its move request
 * reached the compositor) between a press and the drag that follows it,
 * without releasing the button: so this waits on the client's output file.
 */
static bool await_line(const char *path, const char *needle) {
	int64_t deadline = now_ms() + AWAIT_TIMEOUT_MS;
	while (!file_contains(path, needle)) {
		if (now_ms() >= deadline) {
			fprintf(stderr,
					"fw-test-pointer: no line with '%s' in %s after %d ms\n",
					needle, path, AWAIT_TIMEOUT_MS);
			return false;
		}
		sleep_ms(AWAIT_POLL_MS);
	}
	return true;
}

static void send_button(struct pointer_tool *tool, uint32_t button,
		enum wl_pointer_button_state state) {
	zwlr_virtual_pointer_v1_button(tool->pointer, now_ms(), button, state);
	zwlr_virtual_pointer_v1_frame(tool->pointer);
}

/*
 * Motion as a fast mouse sends it, each event on the wire as it happens:
 * a client that does not read meanwhile has it all queued.
 */
static bool flood(struct pointer_tool *tool, uint32_t hz, uint32_t seconds,
		uint32_t x, uint32_t y) {
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	uint64_t count = (uint64_t)hz * seconds;
	long step_ns = 1000000000L / (long)hz;
	for (uint64_t i = 0; i < count; i++) {
		zwlr_virtual_pointer_v1_motion_absolute(tool->pointer, now_ms(),
				x + (uint32_t)(i % 8), y + (uint32_t)(i % 5),
				tool->extent_width, tool->extent_height);
		zwlr_virtual_pointer_v1_frame(tool->pointer);
		if (wl_display_flush(tool->display) < 0 && errno != EAGAIN) {
			fprintf(stderr, "fw-test-pointer: flood: %s\n", strerror(errno));
			return false;
		}
		next.tv_nsec += step_ns;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	printf("flooded %" PRIu64 " motion events\n", count);
	return true;
}

static const char usage[] =
		"usage: fw-test-pointer [--extent WxH] STEP...\n"
		"steps:\n"
		"  move X Y           absolute motion to output pixel X,Y\n"
		"  press [BUTTON]     press (left, right, middle or a code; default "
		"left)\n"
		"  release [BUTTON]   release\n"
		"  click [BUTTON]     press and release\n"
		"  sleep MS           pause\n"
		"  await FILE TEXT    wait (up to 30 s) until a line of FILE has TEXT\n"
		"  flood HZ S X Y     motion around X,Y (within 8 px) HZ times a\n"
		"                     second for S seconds, no roundtrip between\n"
		"The extent defaults to 1280x720, the headless output size.\n";

// Returns the number of arguments consumed, or 0 on a bad step.
static int run_step(struct pointer_tool *tool, int argc, char *argv[]) {
	const char *step = argv[0];
	uint32_t button = BTN_LEFT;
	bool has_button = argc > 1 && parse_button(argv[1], &button);
	if (strcmp(step, "move") == 0) {
		uint32_t x, y;
		if (argc < 3 || !parse_uint(argv[1], &x) || !parse_uint(argv[2], &y)) {
			fprintf(stderr, "fw-test-pointer: move needs X Y\n");
			return 0;
		}
		zwlr_virtual_pointer_v1_motion_absolute(tool->pointer, now_ms(), x, y,
				tool->extent_width, tool->extent_height);
		zwlr_virtual_pointer_v1_frame(tool->pointer);
		return 3;
	} else if (strcmp(step, "press") == 0) {
		send_button(tool, button, WL_POINTER_BUTTON_STATE_PRESSED);
		return has_button ? 2 : 1;
	} else if (strcmp(step, "release") == 0) {
		send_button(tool, button, WL_POINTER_BUTTON_STATE_RELEASED);
		return has_button ? 2 : 1;
	} else if (strcmp(step, "click") == 0) {
		send_button(tool, button, WL_POINTER_BUTTON_STATE_PRESSED);
		send_button(tool, button, WL_POINTER_BUTTON_STATE_RELEASED);
		return has_button ? 2 : 1;
	} else if (strcmp(step, "sleep") == 0) {
		uint32_t ms;
		if (argc < 2 || !parse_uint(argv[1], &ms)) {
			fprintf(stderr, "fw-test-pointer: sleep needs MS\n");
			return 0;
		}
		sleep_ms(ms);
		return 2;
	} else if (strcmp(step, "await") == 0) {
		if (argc < 3) {
			fprintf(stderr, "fw-test-pointer: await needs FILE TEXT\n");
			return 0;
		}
		return await_line(argv[1], argv[2]) ? 3 : 0;
	}
	if (strcmp(step, "flood") == 0) {
		uint32_t hz, seconds, x, y;
		if (argc < 5 || !parse_uint(argv[1], &hz) || hz == 0 ||
				!parse_uint(argv[2], &seconds) || !parse_uint(argv[3], &x) ||
				!parse_uint(argv[4], &y)) {
			fprintf(stderr, "fw-test-pointer: flood needs HZ S X Y\n");
			return 0;
		}
		return flood(tool, hz, seconds, x, y) ? 5 : 0;
	}
	fprintf(stderr, "fw-test-pointer: unknown step '%s'\n", step);
	return 0;
}

int main(int argc, char *argv[]) {
	struct pointer_tool tool = {
			.extent_width = 1280,
			.extent_height = 720,
	};
	int first = 1;
	if (argc > 2 && strcmp(argv[1], "--extent") == 0) {
		char *end;
		long w = strtol(argv[2], &end, 10);
		long h = *end == 'x' ? strtol(end + 1, &end, 10) : 0;
		if (*end != '\0' || w <= 0 || h <= 0) {
			fputs(usage, stderr);
			return 2;
		}
		tool.extent_width = w;
		tool.extent_height = h;
		first = 3;
	}
	if (first >= argc || strcmp(argv[first], "-h") == 0 ||
			strcmp(argv[first], "--help") == 0) {
		fputs(usage, first >= argc ? stderr : stdout);
		return first >= argc ? 2 : 0;
	}

	int status = 1;
	tool.display = wl_display_connect(NULL);
	if (tool.display == NULL) {
		fprintf(stderr, "fw-test-pointer: cannot connect to the compositor\n");
		return 1;
	}
	tool.registry = wl_display_get_registry(tool.display);
	wl_registry_add_listener(tool.registry, &registry_listener, &tool);
	if (wl_display_roundtrip(tool.display) < 0) {
		fprintf(stderr, "fw-test-pointer: roundtrip failed\n");
		goto out;
	}
	if (tool.manager == NULL) {
		fprintf(stderr,
				"fw-test-pointer: compositor lacks "
				"zwlr_virtual_pointer_manager_v1\n");
		goto out;
	}
	tool.pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(
			tool.manager, tool.seat);

	for (int i = first; i < argc;) {
		int used = run_step(&tool, argc - i, &argv[i]);
		if (used == 0) {
			goto out;
		}
		if (wl_display_roundtrip(tool.display) < 0) {
			fprintf(stderr,
					"fw-test-pointer: compositor went away after "
					"step '%s'\n",
					argv[i]);
			goto out;
		}
		i += used;
	}
	status = 0;

out:
	if (tool.pointer != NULL) {
		zwlr_virtual_pointer_v1_destroy(tool.pointer);
	}
	if (tool.manager != NULL) {
		zwlr_virtual_pointer_manager_v1_destroy(tool.manager);
	}
	if (tool.seat != NULL) {
		wl_seat_destroy(tool.seat);
	}
	wl_registry_destroy(tool.registry);
	wl_display_flush(tool.display);
	wl_display_disconnect(tool.display);
	return status;
}
