/*
 * A scriptable wlr-layer-shell surface for the compositor tests: one solid
 * colour, placed by the anchors, margins, size and exclusive zone it is
 * given, reporting configures, focus and pointer events one line each on
 * stdout. With --commands, lines on stdin change its state as a bar or a
 * launcher would while it runs.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "fw-test-buffer.h"
#include "fw-test-lines.h"
#include "fw-test-loop.h"
#include "fw-test-seat.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

struct layer_client {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct fw_test_seat seat;
	struct zwlr_layer_shell_v1 *layer_shell;

	struct wl_surface *surface;
	struct zwlr_layer_surface_v1 *layer_surface;
	struct test_buffer *buffer;
	struct wl_list buffers; // test_buffer.link

	uint32_t layer;
	uint32_t anchor;
	int32_t margin[4]; // top, right, bottom, left
	int32_t zone;
	uint32_t keyboard_mode;
	int want_width, want_height;
	int width, height;
	uint32_t color;
	bool mapped;
	bool running;
	bool commands;
	struct fw_test_lines lines;
};

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct layer_client *client = data;
	wl_callback_destroy(callback);
	if (!client->mapped) {
		client->mapped = true;
		printf("mapped\n");
	}
}

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

static void handle_configure(void *data,
		struct zwlr_layer_surface_v1 *layer_surface, uint32_t serial,
		uint32_t width, uint32_t height) {
	struct layer_client *client = data;
	zwlr_layer_surface_v1_ack_configure(layer_surface, serial);
	client->width = width > 0 ? (int)width : client->want_width;
	client->height = height > 0 ? (int)height : client->want_height;
	printf("configured %d %d\n", client->width, client->height);
	if (!test_buffer_show(client->shm, &client->buffers, client->surface,
				&client->buffer, client->width, client->height, client->color,
				255)) {
		client->running = false;
		return;
	}
	if (!client->mapped) {
		struct wl_callback *callback = wl_surface_frame(client->surface);
		wl_callback_add_listener(callback, &frame_listener, client);
	}
	wl_surface_commit(client->surface);
}

static void handle_closed(
		void *data, struct zwlr_layer_surface_v1 *layer_surface) {
	struct layer_client *client = data;
	printf("closed\n");
	client->running = false;
}

static const struct zwlr_layer_surface_v1_listener layer_surface_listener = {
		.configure = handle_configure,
		.closed = handle_closed,
};

static void handle_registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct layer_client *client = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		client->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		client->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0) {
		// Version 4 brings on_demand keyboard interactivity.
		client->layer_shell = wl_registry_bind(registry, name,
				&zwlr_layer_shell_v1_interface, version < 4 ? version : 4);
	} else if (strcmp(interface, wl_seat_interface.name) == 0) {
		fw_test_seat_bind(&client->seat, registry, name, version);
	}
}

static void handle_registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	// Globals this client binds are never removed in a test run.
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_registry_global,
		.global_remove = handle_registry_global_remove,
};

static bool parse_layer(const char *arg, uint32_t *layer) {
	static const char *names[] = {"background", "bottom", "top", "overlay"};
	for (uint32_t i = 0; i < 4; i++) {
		if (strcmp(arg, names[i]) == 0) {
			*layer = i;
			return true;
		}
	}
	return false;
}

static bool parse_anchor(const char *arg, uint32_t *anchor) {
	*anchor = 0;
	for (const char *c = arg; *c != '\0'; c++) {
		switch (*c) {
		case 't':
			*anchor |= ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP;
			break;
		case 'b':
			*anchor |= ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
			break;
		case 'l':
			*anchor |= ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT;
			break;
		case 'r':
			*anchor |= ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
			break;
		case '-':
			break;
		default:
			return false;
		}
	}
	return true;
}

static bool parse_keyboard(const char *arg, uint32_t *mode) {
	if (strcmp(arg, "none") == 0) {
		*mode = ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE;
	} else if (strcmp(arg, "exclusive") == 0) {
		*mode = ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE;
	} else if (strcmp(arg, "on_demand") == 0) {
		*mode = ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND;
	} else {
		return false;
	}
	return true;
}

static bool parse_size(const char *arg, int *width, int *height) {
	char *end;
	long w = strtol(arg, &end, 10);
	if (*end != 'x') {
		return false;
	}
	long h = strtol(end + 1, &end, 10);
	if (*end != '\0' || w < 0 || h < 0 || w > 16384 || h > 16384) {
		return false;
	}
	*width = (int)w;
	*height = (int)h;
	return true;
}

static bool parse_margin(const char *arg, int32_t margin[4]) {
	return sscanf(arg, "%d,%d,%d,%d", &margin[0], &margin[1], &margin[2],
				   &margin[3]) == 4;
}

static bool parse_color(const char *arg, uint32_t *color) {
	char *end;
	unsigned long value = strtoul(arg, &end, 16);
	if (strlen(arg) != 6 || *end != '\0') {
		return false;
	}
	*color = (uint32_t)value;
	return true;
}

static void send_state(struct layer_client *client) {
	zwlr_layer_surface_v1_set_size(client->layer_surface,
			(uint32_t)client->want_width, (uint32_t)client->want_height);
	zwlr_layer_surface_v1_set_anchor(client->layer_surface, client->anchor);
	zwlr_layer_surface_v1_set_margin(client->layer_surface, client->margin[0],
			client->margin[1], client->margin[2], client->margin[3]);
	zwlr_layer_surface_v1_set_exclusive_zone(
			client->layer_surface, client->zone);
	zwlr_layer_surface_v1_set_keyboard_interactivity(
			client->layer_surface, client->keyboard_mode);
	if (zwlr_layer_surface_v1_get_version(client->layer_surface) >=
			ZWLR_LAYER_SURFACE_V1_SET_LAYER_SINCE_VERSION) {
		zwlr_layer_surface_v1_set_layer(client->layer_surface, client->layer);
	}
}

static void handle_command_done(
		void *data, struct wl_callback *callback, uint32_t unused) {
	wl_callback_destroy(callback);
	printf("command-done\n");
}

static const struct wl_callback_listener command_done_listener = {
		.done = handle_command_done,
};

static void run_command(void *data, char *line) {
	struct layer_client *client = data;
	char *arg = strchr(line, ' ');
	if (arg != NULL) {
		*arg++ = '\0';
	}
	bool ok = arg != NULL;
	if (ok && strcmp(line, "zone") == 0) {
		client->zone = atoi(arg);
	} else if (ok && strcmp(line, "size") == 0) {
		ok = parse_size(arg, &client->want_width, &client->want_height);
	} else if (ok && strcmp(line, "anchor") == 0) {
		ok = parse_anchor(arg, &client->anchor);
	} else if (ok && strcmp(line, "margin") == 0) {
		ok = parse_margin(arg, client->margin);
	} else if (ok && strcmp(line, "keyboard") == 0) {
		ok = parse_keyboard(arg, &client->keyboard_mode);
	} else if (ok && strcmp(line, "layer") == 0) {
		ok = parse_layer(arg, &client->layer);
	} else {
		ok = false;
	}
	if (!ok) {
		fprintf(stderr, "fw-test-layer: bad command: %s\n", line);
		return;
	}
	send_state(client);
	wl_surface_commit(client->surface);
	struct wl_callback *callback = wl_display_sync(client->display);
	wl_callback_add_listener(callback, &command_done_listener, client);
}

static int run(struct layer_client *client) {
	int fd = client->commands ? STDIN_FILENO : -1;
	while (client->running) {
		enum fw_test_loop_result result =
				fw_test_loop_turn(client->display, fd, -1);
		if (result == FW_TEST_LOOP_LOST) {
			goto disconnected;
		} else if (result == FW_TEST_LOOP_FAILED) {
			return 1;
		}
		if (result == FW_TEST_LOOP_FD_READY &&
				!fw_test_lines_read(
						&client->lines, STDIN_FILENO, run_command, client)) {
			printf("stdin-closed\n");
			break;
		}
	}
	fflush(stdout);
	return 0;

disconnected:
	printf("disconnected\n");
	fflush(stdout);
	return 1;
}

static const char usage[] =
		"usage: fw-test-layer [options]\n"
		"  --layer background|bottom|top|overlay  (default top)\n"
		"  --anchor EDGES        letters of t, b, l, r; '-' for none\n"
		"  --size WxH            0 for the anchored span (default 100x100)\n"
		"  --margin T,R,B,L      (default 0,0,0,0)\n"
		"  --zone N              exclusive zone (default 0)\n"
		"  --keyboard none|exclusive|on_demand  (default none)\n"
		"  --color RRGGBB        (default ff00ff)\n"
		"  --commands            stdin lines change the state: 'zone N',\n"
		"                        'size WxH', 'anchor EDGES', 'margin T,R,B,L',\n"
		"                        'keyboard MODE', 'layer NAME'; exit on EOF\n"
		"Prints one line per event on stdout.\n";

int main(int argc, char *argv[]) {
	struct layer_client client = {
			.layer = ZWLR_LAYER_SHELL_V1_LAYER_TOP,
			.want_width = 100,
			.want_height = 100,
			.color = 0xff00ff,
			.running = true,
	};
	wl_list_init(&client.buffers);
	static const struct option long_options[] = {
			{"layer", required_argument, NULL, 'L'},
			{"anchor", required_argument, NULL, 'a'},
			{"size", required_argument, NULL, 's'},
			{"margin", required_argument, NULL, 'm'},
			{"zone", required_argument, NULL, 'z'},
			{"keyboard", required_argument, NULL, 'k'},
			{"color", required_argument, NULL, 'c'},
			{"commands", no_argument, NULL, 'C'},
			{"help", no_argument, NULL, 'h'},
			{0},
	};
	int c;
	while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		bool ok = true;
		switch (c) {
		case 'L':
			ok = parse_layer(optarg, &client.layer);
			break;
		case 'a':
			ok = parse_anchor(optarg, &client.anchor);
			break;
		case 's':
			ok = parse_size(optarg, &client.want_width, &client.want_height);
			break;
		case 'm':
			ok = parse_margin(optarg, client.margin);
			break;
		case 'z':
			client.zone = atoi(optarg);
			break;
		case 'k':
			ok = parse_keyboard(optarg, &client.keyboard_mode);
			break;
		case 'c':
			ok = parse_color(optarg, &client.color);
			break;
		case 'C':
			client.commands = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			ok = false;
			break;
		}
		if (!ok) {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fputs(usage, stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	client.display = wl_display_connect(NULL);
	if (client.display == NULL) {
		fprintf(stderr, "fw-test-layer: cannot connect to the compositor\n");
		return 1;
	}
	int status = 1;
	client.registry = wl_display_get_registry(client.display);
	wl_registry_add_listener(client.registry, &registry_listener, &client);
	if (wl_display_roundtrip(client.display) < 0) {
		goto out;
	}
	if (client.compositor == NULL || client.shm == NULL ||
			client.layer_shell == NULL) {
		fprintf(stderr,
				"fw-test-layer: compositor lacks wl_compositor, "
				"wl_shm or zwlr_layer_shell_v1\n");
		goto out;
	}
	client.surface = wl_compositor_create_surface(client.compositor);
	client.layer_surface =
			zwlr_layer_shell_v1_get_layer_surface(client.layer_shell,
					client.surface, NULL, client.layer, "fw-test-layer");
	zwlr_layer_surface_v1_add_listener(
			client.layer_surface, &layer_surface_listener, &client);
	send_state(&client);
	wl_surface_commit(client.surface);
	status = run(&client);

out:
	if (client.layer_surface != NULL) {
		zwlr_layer_surface_v1_destroy(client.layer_surface);
	}
	if (client.surface != NULL) {
		wl_surface_destroy(client.surface);
	}
	struct test_buffer *buffer, *tmp;
	wl_list_for_each_safe(buffer, tmp, &client.buffers, link) {
		test_buffer_free(buffer);
	}
	fw_test_seat_finish(&client.seat);
	if (client.layer_shell != NULL &&
			zwlr_layer_shell_v1_get_version(client.layer_shell) >=
					ZWLR_LAYER_SHELL_V1_DESTROY_SINCE_VERSION) {
		zwlr_layer_shell_v1_destroy(client.layer_shell);
	}
	if (client.shm != NULL) {
		wl_shm_destroy(client.shm);
	}
	if (client.compositor != NULL) {
		wl_compositor_destroy(client.compositor);
	}
	wl_registry_destroy(client.registry);
	wl_display_disconnect(client.display);
	return status;
}
