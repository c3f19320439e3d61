/*
 * A scriptable xdg toplevel for the compositor tests. It paints itself one
 * solid colour so screenshots can locate it, and reports what the compositor
 * does to it as one line per event on stdout, for shell scripts to wait on.
 */
#include <errno.h>
#include <getopt.h>
#include <linux/input-event-codes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "fw-test-buffer.h"
#include "idle-inhibit-unstable-v1-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#include "fw-test-client.h"
#include "fw-test-loop.h"

static void handle_popup_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct test_client *client = data;
	wl_callback_destroy(callback);
	if (!client->popup.mapped) {
		client->popup.mapped = true;
		printf("popup-mapped\n");
	}
}

static const struct wl_callback_listener popup_frame_listener = {
		.done = handle_popup_frame_done,
};

static void handle_popup_surface_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct test_client *client = data;
	struct popup *popup = &client->popup;
	xdg_surface_ack_configure(xdg_surface, serial);
	if (!test_buffer_show(client->shm, &client->buffers, popup->surface,
				&popup->buffer, popup->width, popup->height, popup->color,
				255)) {
		client->running = false;
		client->exit_status = 1;
		return;
	}
	if (!popup->mapped) {
		struct wl_callback *callback = wl_surface_frame(popup->surface);
		wl_callback_add_listener(callback, &popup_frame_listener, client);
	}
	wl_surface_commit(popup->surface);
}

static const struct xdg_surface_listener popup_surface_listener = {
		.configure = handle_popup_surface_configure,
};

static void handle_popup_configure(void *data, struct xdg_popup *xdg_popup,
		int32_t x, int32_t y, int32_t width, int32_t height) {
	printf("popup-configured %d %d %d %d\n", x, y, width, height);
}

static void handle_popup_done(void *data, struct xdg_popup *xdg_popup) {
	printf("popup-done\n");
}

static void handle_popup_repositioned(
		void *data, struct xdg_popup *xdg_popup, uint32_t token) {
	// Only sent after xdg_popup.reposition, which this client never uses.
}

static const struct xdg_popup_listener popup_listener = {
		.configure = handle_popup_configure,
		.popup_done = handle_popup_done,
		.repositioned = handle_popup_repositioned,
};

/*
 * Anchored at the parent's right edge and growing rightwards, so that a
 * parent reaching near the output's right edge pushes the naive position
 * off the output: the compositor has to slide or flip it back.
 */
static void popup_open(struct test_client *client) {
	struct popup *popup = &client->popup;
	struct xdg_positioner *positioner =
			xdg_wm_base_create_positioner(client->wm_base);
	xdg_positioner_set_size(positioner, popup->width, popup->height);
	if (client->popup_edge == 'b') {
		// A menu under a window's bottom edge: flips above it, or slides.
		xdg_positioner_set_anchor_rect(
				positioner, 0, client->height - 1, client->width, 1);
		xdg_positioner_set_anchor(positioner, XDG_POSITIONER_ANCHOR_BOTTOM);
		xdg_positioner_set_gravity(positioner, XDG_POSITIONER_GRAVITY_BOTTOM);
		xdg_positioner_set_constraint_adjustment(positioner,
				XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y |
						XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X |
						XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y);
	} else if (client->popup_edge == 't') {
		// Over the top edge, and may only slide back down.
		xdg_positioner_set_anchor_rect(positioner, 0, 0, client->width, 1);
		xdg_positioner_set_anchor(positioner, XDG_POSITIONER_ANCHOR_TOP);
		xdg_positioner_set_gravity(positioner, XDG_POSITIONER_GRAVITY_TOP);
		xdg_positioner_set_constraint_adjustment(
				positioner, XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y);
	} else {
		xdg_positioner_set_anchor_rect(
				positioner, client->width - 1, client->height / 4, 1, 1);
		xdg_positioner_set_anchor(positioner, XDG_POSITIONER_ANCHOR_RIGHT);
		xdg_positioner_set_gravity(
				positioner, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT);
		xdg_positioner_set_constraint_adjustment(positioner,
				XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X |
						XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X |
						XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y);
	}

	popup->surface = wl_compositor_create_surface(client->compositor);
	popup->xdg_surface =
			xdg_wm_base_get_xdg_surface(client->wm_base, popup->surface);
	xdg_surface_add_listener(
			popup->xdg_surface, &popup_surface_listener, client);
	popup->xdg_popup = xdg_surface_get_popup(
			popup->xdg_surface, client->xdg_surface, positioner);
	xdg_popup_add_listener(popup->xdg_popup, &popup_listener, client);
	xdg_positioner_destroy(positioner);
	wl_surface_commit(popup->surface);
	printf("popup-requested %d %d %d %d\n", client->width, client->height / 4,
			popup->width, popup->height);
}

// Shrinks the pool under the shown buffer and asks for a repaint: the
// compositor's next read of it faults, which must cost this client its
// connection and nothing else.
static void truncate_buffer(struct test_client *client) {
	struct test_buffer *buffer = client->buffer;
	if (ftruncate(buffer->fd, 0) < 0) {
		fprintf(stderr, "ftruncate: %s\n", strerror(errno));
		client->running = false;
		client->exit_status = 1;
		return;
	}
	wl_surface_attach(client->surface, buffer->wl_buffer, 0, 0);
	wl_surface_damage_buffer(
			client->surface, 0, 0, buffer->width, buffer->height);
	wl_surface_commit(client->surface);
	printf("truncated\n");
}

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct test_client *client = data;
	wl_callback_destroy(callback);
	if (client->mapped) {
		return;
	}
	// The first frame callback means the compositor has shown the window.
	client->mapped = true;
	printf("mapped\n");
	if (client->want_popup) {
		popup_open(client);
	}
	if (client->truncate_after_map) {
		truncate_buffer(client);
	}
}

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

static void handle_xdg_surface_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct test_client *client = data;
	if (client->frozen) {
		return;
	}
	xdg_surface_ack_configure(xdg_surface, serial);
	if (client->pending_width > 0) {
		client->width = client->pending_width;
	}
	if (client->pending_height > 0) {
		client->height = client->pending_height;
	}
	printf("configured %d %d\n", client->width, client->height);
	int scale = client->buffer_scale;
	wl_surface_set_buffer_scale(client->surface, scale);
	int shadow = client->shadow;
	if (!test_buffer_show(client->shm, &client->buffers, client->surface,
				&client->buffer, (client->width + 2 * shadow) * scale,
				(client->height + 2 * shadow) * scale, client->color,
				client->alpha)) {
		client->running = false;
		client->exit_status = 1;
		return;
	}
	if (shadow > 0) {
		xdg_surface_set_window_geometry(
				xdg_surface, shadow, shadow, client->width, client->height);
	}
	if (!client->mapped) {
		struct wl_callback *callback = wl_surface_frame(client->surface);
		wl_callback_add_listener(callback, &frame_listener, client);
	}
	wl_surface_commit(client->surface);
}

static const struct xdg_surface_listener xdg_surface_listener = {
		.configure = handle_xdg_surface_configure,
};

static void handle_toplevel_configure(void *data, struct xdg_toplevel *toplevel,
		int32_t width, int32_t height, struct wl_array *states) {
	struct test_client *client = data;
	client->pending_width = width;
	client->pending_height = height;
	printf("toplevel-configure %d %d", width, height);
	uint32_t *state;
	wl_array_for_each(state, states) {
		switch (*state) {
		case XDG_TOPLEVEL_STATE_MAXIMIZED:
			printf(" maximized");
			break;
		case XDG_TOPLEVEL_STATE_FULLSCREEN:
			printf(" fullscreen");
			break;
		case XDG_TOPLEVEL_STATE_RESIZING:
			printf(" resizing");
			break;
		case XDG_TOPLEVEL_STATE_ACTIVATED:
			printf(" activated");
			break;
		default:
			break;
		}
	}
	printf("\n");
}

static void handle_toplevel_close(void *data, struct xdg_toplevel *toplevel) {
	struct test_client *client = data;
	printf("close\n");
	client->running = false;
}

static const struct xdg_toplevel_listener toplevel_listener = {
		.configure = handle_toplevel_configure,
		.close = handle_toplevel_close,
};

static void handle_wm_base_ping(
		void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
		.ping = handle_wm_base_ping,
};

static void handle_request_done(
		void *data, struct wl_callback *callback, uint32_t unused) {
	// The compositor answered the sync sent right after the request, so it
	// has processed the request: scripts may move the pointer now.
	const char *what = data;
	wl_callback_destroy(callback);
	printf("%s-requested\n", what);
}

static const struct wl_callback_listener request_done_listener = {
		.done = handle_request_done,
};

void report_when_done(struct test_client *client, const char *what) {
	struct wl_callback *callback = wl_display_sync(client->display);
	wl_callback_add_listener(callback, &request_done_listener, (void *)what);
}

// Activates this window with the token name.
static void activate_with(struct test_client *client, const char *name) {
	xdg_activation_v1_activate(client->activation, name, client->surface);
	report_when_done(client, "activation");
}

static void handle_token_done(
		void *data, struct xdg_activation_token_v1 *token, const char *name) {
	struct test_client *client = data;
	xdg_activation_token_v1_destroy(token);
	activate_with(client, name);
}

static const struct xdg_activation_token_v1_listener token_listener = {
		.done = handle_token_done,
};

// A token for another client to activate with, as a launcher makes one.
static void handle_minted_done(
		void *data, struct xdg_activation_token_v1 *token, const char *name) {
	xdg_activation_token_v1_destroy(token);
	printf("token %s\n", name);
}

static const struct xdg_activation_token_v1_listener minted_listener = {
		.done = handle_minted_done,
};

// Asks, through xdg-activation, that this window be focused, as a client
// that wants attention does: a token for itself, then activate. With
// input, the token carries the seat and the serial of the last input
// this client got, and is printed for another client to use.
static void request_token(struct test_client *client, bool input) {
	if (client->activation == NULL) {
		fprintf(stderr, "fw-test-client: no xdg_activation_v1\n");
		return;
	}
	struct xdg_activation_token_v1 *token =
			xdg_activation_v1_get_activation_token(client->activation);
	if (input) {
		xdg_activation_token_v1_add_listener(token, &minted_listener, client);
		xdg_activation_token_v1_set_serial(
				token, client->input_serial, client->seat);
	} else {
		xdg_activation_token_v1_add_listener(token, &token_listener, client);
	}
	xdg_activation_token_v1_set_surface(token, client->surface);
	xdg_activation_token_v1_commit(token);
}

static uint32_t min_version(uint32_t offered, uint32_t wanted) {
	return offered < wanted ? offered : wanted;
}

static void handle_registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct test_client *client = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		client->compositor = wl_registry_bind(registry, name,
				&wl_compositor_interface, min_version(version, 4));
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		client->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		client->wm_base = wl_registry_bind(registry, name,
				&xdg_wm_base_interface, min_version(version, 2));
		xdg_wm_base_add_listener(client->wm_base, &wm_base_listener, client);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 &&
			client->seat == NULL) {
		client->seat = wl_registry_bind(
				registry, name, &wl_seat_interface, min_version(version, 5));
		wl_seat_add_listener(
				client->seat, &fw_test_client_seat_listener, client);
	} else if (strcmp(interface, zwp_idle_inhibit_manager_v1_interface.name) ==
			0) {
		client->idle_inhibit_manager = wl_registry_bind(
				registry, name, &zwp_idle_inhibit_manager_v1_interface, 1);
	} else if (strcmp(interface, xdg_activation_v1_interface.name) == 0) {
		client->activation = wl_registry_bind(
				registry, name, &xdg_activation_v1_interface, 1);
	} else {
		fw_test_client_bind_decoration(client, registry, name, interface);
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

static bool parse_size(const char *arg, int *width, int *height) {
	char *end;
	long w = strtol(arg, &end, 10);
	if (*end != 'x') {
		return false;
	}
	long h = strtol(end + 1, &end, 10);
	if (*end != '\0' || w <= 0 || h <= 0 || w > 16384 || h > 16384) {
		return false;
	}
	*width = w;
	*height = h;
	return true;
}

static bool parse_color(const char *arg, uint32_t *color) {
	if (arg[0] == '#') {
		arg++;
	}
	char *end;
	unsigned long value = strtoul(arg, &end, 16);
	if (strlen(arg) != 6 || *end != '\0') {
		return false;
	}
	*color = value;
	return true;
}

static int64_t now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char usage[] =
		"usage: fw-test-client [options]\n"
		"  --color RRGGBB        fill colour (default ff0000)\n"
		"  --alpha A             opacity 0-255 of the window (default 255)\n"
		"  --buffer-scale N      draw at N times the window's size, 1-4\n"
		"  --size WxH            initial size (default 400x300)\n"
		"  --title TEXT          xdg_toplevel title\n"
		"  --app-id ID           xdg_toplevel app id\n"
		"  --popup WxH           once mapped, open a popup this size\n"
		"                        anchored at the right edge, growing rightwards\n"
		"  --popup-edge E        where the popup hangs: right (default),\n"
		"                        bottom (flips up or slides), top (slides)\n"
		"  --shadow N            window geometry N inside the buffer on\n"
		"                        each side, as a client's shadow puts it\n"
		"  --popup-color RRGGBB  popup colour (default 00ff00)\n"
		"  --move-on-click       left press starts xdg_toplevel.move\n"
		"  --resize-on-click     left press starts a bottom-right resize\n"
		"  --duration S          exit after S seconds (default: run on)\n"
		"  --stdin               exit when stdin closes; a line 'activate'\n"
		"                        asks for focus through xdg-activation\n"
		"  --truncate-after-map  once shown, shrink the buffer's pool to 0\n"
		"  --maximized           ask to be maximized before mapping\n"
		"  --commands            read commands from stdin, one a line:\n"
		"                        'title TEXT', 'app-id TEXT', 'maximize',\n"
		"                        'unmaximize', 'activate' (a token of its\n"
		"                        own), 'token' (one with its last input's\n"
		"                        serial, printed as 'token NAME'),\n"
		"                        'activate-token NAME', 'activate-env'\n"
		"                        (with $XDG_ACTIVATION_TOKEN), 'truncate'\n"
		"                        (the pool shrunk to 0, and no commit\n"
		"                        after, not even to a configure);\n"
		"                        exit when stdin closes\n"
		"  --idle-inhibit        hold an idle inhibitor on the window\n"
		"  --decoration MODE     who draws the frame, as the window asks:\n"
		"                        server, client or unset (xdg-decoration;\n"
		"                        default server), kde-server, kde-client\n"
		"                        (KDE's protocol), none (neither)\n"
		"Prints one line per event on stdout.\n";

static int parse_options(struct test_client *client, int argc, char *argv[],
		int *duration, bool *watch_stdin) {
	static const struct option long_options[] = {
			{"color", required_argument, NULL, 'c'},
			{"alpha", required_argument, NULL, 'A'},
			{"buffer-scale", required_argument, NULL, 'S'},
			{"size", required_argument, NULL, 's'},
			{"title", required_argument, NULL, 't'},
			{"app-id", required_argument, NULL, 'a'},
			{"popup", required_argument, NULL, 'p'},
			{"popup-color", required_argument, NULL, 'P'},
			{"popup-edge", required_argument, NULL, 'B'},
			{"shadow", required_argument, NULL, 'W'},
			{"move-on-click", no_argument, NULL, 'm'},
			{"resize-on-click", no_argument, NULL, 'r'},
			{"duration", required_argument, NULL, 'd'},
			{"stdin", no_argument, NULL, 'i'},
			{"truncate-after-map", no_argument, NULL, 'T'},
			{"maximized", no_argument, NULL, 'M'},
			{"commands", no_argument, NULL, 'C'},
			{"idle-inhibit", no_argument, NULL, 'I'},
			{"decoration", required_argument, NULL, 'D'},
			{"help", no_argument, NULL, 'h'},
			{0},
	};
	int c;
	while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!parse_color(optarg, &client->color)) {
				fprintf(stderr, "bad colour: %s\n", optarg);
				return 2;
			}
			break;
		case 'A':;
			char *end;
			unsigned long alpha = strtoul(optarg, &end, 10);
			if (optarg[0] == '\0' || *end != '\0' || alpha > 255) {
				fprintf(stderr, "bad alpha: %s\n", optarg);
				return 2;
			}
			client->alpha = (uint32_t)alpha;
			break;
		case 'S':
			if (strcmp(optarg, "1") != 0 && strcmp(optarg, "2") != 0 &&
					strcmp(optarg, "3") != 0 && strcmp(optarg, "4") != 0) {
				fprintf(stderr, "bad buffer scale: %s\n", optarg);
				return 2;
			}
			client->buffer_scale = atoi(optarg);
			break;
		case 's':
			if (!parse_size(optarg, &client->width, &client->height)) {
				fprintf(stderr, "bad size: %s\n", optarg);
				return 2;
			}
			break;
		case 't':
			client->title = optarg;
			break;
		case 'a':
			client->app_id = optarg;
			break;
		case 'B':
			if (strcmp(optarg, "right") != 0 && strcmp(optarg, "bottom") != 0 &&
					strcmp(optarg, "top") != 0) {
				fprintf(stderr, "bad popup edge: %s\n", optarg);
				return 2;
			}
			client->popup_edge = optarg[0];
			break;
		case 'W':
			client->shadow = atoi(optarg);
			if (client->shadow < 0 || client->shadow > 200) {
				fprintf(stderr, "bad shadow: %s\n", optarg);
				return 2;
			}
			break;
		case 'p':
			if (!parse_size(
						optarg, &client->popup.width, &client->popup.height)) {
				fprintf(stderr, "bad popup size: %s\n", optarg);
				return 2;
			}
			client->want_popup = true;
			break;
		case 'P':
			if (!parse_color(optarg, &client->popup.color)) {
				fprintf(stderr, "bad colour: %s\n", optarg);
				return 2;
			}
			break;
		case 'm':
			client->move_on_click = true;
			break;
		case 'r':
			client->resize_on_click = true;
			break;
		case 'd':
			*duration = atoi(optarg);
			break;
		case 'i':
			*watch_stdin = true;
			break;
		case 'T':
			client->truncate_after_map = true;
			break;
		case 'M':
			client->maximized = true;
			break;
		case 'C':
			client->commands = true;
			*watch_stdin = true;
			break;
		case 'I':
			client->idle_inhibit = true;
			break;
		case 'D':
			if (!fw_test_client_parse_decoration(client, optarg)) {
				fputs(usage, stderr);
				return 2;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fputs(usage, stderr);
		return 2;
	}
	return -1;
}

static void run_command(void *data, char *line) {
	struct test_client *client = data;
	if (strncmp(line, "title ", 6) == 0) {
		xdg_toplevel_set_title(client->toplevel, line + 6);
	} else if (strncmp(line, "app-id ", 7) == 0) {
		xdg_toplevel_set_app_id(client->toplevel, line + 7);
	} else if (strcmp(line, "maximize") == 0) {
		xdg_toplevel_set_maximized(client->toplevel);
	} else if (strcmp(line, "unmaximize") == 0) {
		xdg_toplevel_unset_maximized(client->toplevel);
	} else if (strcmp(line, "activate") == 0) {
		request_token(client, false);
	} else if (strcmp(line, "token") == 0) {
		request_token(client, true);
	} else if (strncmp(line, "activate-token ", 15) == 0) {
		activate_with(client, line + 15);
	} else if (strcmp(line, "truncate") == 0) {
		// Nothing committed after, as from a client that hangs: only the
		// compositor's next read of the pool, at a repaint of its own,
		// finds it.
		client->frozen = true;
		if (ftruncate(client->buffer->fd, 0) < 0) {
			fprintf(stderr, "ftruncate: %s\n", strerror(errno));
		}
		printf("truncated\n");
	} else if (strcmp(line, "activate-env") == 0 &&
			getenv("XDG_ACTIVATION_TOKEN") != NULL) {
		activate_with(client, getenv("XDG_ACTIVATION_TOKEN"));
	} else {
		fprintf(stderr, "fw-test-client: unknown command: %s\n", line);
		return;
	}
	// "command-requested" once the compositor has handled it.
	report_when_done(client, "command");
}

static int run(struct test_client *client, int duration, bool watch_stdin) {
	int64_t deadline = duration > 0 ? now_ms() + duration * 1000 : -1;
	int fd = watch_stdin ? STDIN_FILENO : -1;

	while (client->running) {
		int timeout = -1;
		if (deadline >= 0) {
			int64_t left = deadline - now_ms();
			timeout = left > 0 ? (int)left : 0;
		}
		enum fw_test_loop_result result =
				fw_test_loop_turn(client->display, fd, timeout);
		if (result == FW_TEST_LOOP_LOST) {
			goto disconnected;
		} else if (result == FW_TEST_LOOP_FAILED) {
			return 1;
		}
		if (result == FW_TEST_LOOP_FD_READY) {
			bool open;
			if (client->commands) {
				open = fw_test_lines_read(
						&client->lines, STDIN_FILENO, run_command, client);
			} else {
				char byte[256];
				ssize_t got = read(STDIN_FILENO, byte, sizeof(byte));
				open = got > 0;
				if (open && memmem(byte, (size_t)got, "activate", 8) != NULL) {
					request_token(client, false);
				}
			}
			if (!open) {
				printf("stdin-closed\n");
				break;
			}
		}
		if (deadline >= 0 && now_ms() >= deadline) {
			printf("timeout\n");
			break;
		}
	}
	fflush(stdout);
	return client->exit_status;

disconnected:
	printf("disconnected\n");
	fflush(stdout);
	fprintf(stderr, "fw-test-client: lost the compositor (error %d)\n",
			wl_display_get_error(client->display));
	return 1;
}

int main(int argc, char *argv[]) {
	struct test_client client = {
			.color = 0xff0000,
			.alpha = 255,
			.buffer_scale = 1,
			.width = 400,
			.height = 300,
			.title = "fw-test-client",
			.app_id = "fw-test-client",
			.popup = {.color = 0x00ff00},
			.running = true,
	};
	wl_list_init(&client.buffers);
	int duration = 0;
	bool watch_stdin = false;
	int status = parse_options(&client, argc, argv, &duration, &watch_stdin);
	if (status >= 0) {
		return status;
	}
	// Scripts read stdout through pipes and files while this runs.
	setvbuf(stdout, NULL, _IOLBF, 0);

	client.display = wl_display_connect(NULL);
	if (client.display == NULL) {
		fprintf(stderr, "fw-test-client: cannot connect to the compositor\n");
		return 1;
	}
	client.registry = wl_display_get_registry(client.display);
	wl_registry_add_listener(client.registry, &registry_listener, &client);
	if (wl_display_roundtrip(client.display) < 0) {
		fprintf(stderr, "fw-test-client: roundtrip failed\n");
		goto out;
	}
	if (client.compositor == NULL || client.shm == NULL ||
			client.wm_base == NULL) {
		fprintf(stderr,
				"fw-test-client: compositor lacks wl_compositor, "
				"wl_shm or xdg_wm_base\n");
		status = 1;
		goto out;
	}
	if (client.idle_inhibit && client.idle_inhibit_manager == NULL) {
		fprintf(stderr, "fw-test-client: no zwp_idle_inhibit_manager_v1\n");
		status = 1;
		goto out;
	}
	if ((client.move_on_click || client.resize_on_click) &&
			client.seat == NULL) {
		fprintf(stderr, "fw-test-client: no wl_seat for move/resize\n");
		status = 1;
		goto out;
	}

	client.surface = wl_compositor_create_surface(client.compositor);
	client.xdg_surface =
			xdg_wm_base_get_xdg_surface(client.wm_base, client.surface);
	xdg_surface_add_listener(
			client.xdg_surface, &xdg_surface_listener, &client);
	client.toplevel = xdg_surface_get_toplevel(client.xdg_surface);
	xdg_toplevel_add_listener(client.toplevel, &toplevel_listener, &client);
	xdg_toplevel_set_title(client.toplevel, client.title);
	xdg_toplevel_set_app_id(client.toplevel, client.app_id);
	if (client.maximized) {
		xdg_toplevel_set_maximized(client.toplevel);
	}
	if (!fw_test_client_decorate(&client)) {
		status = 1;
		goto out;
	}
	if (client.idle_inhibit) {
		client.idle_inhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(
				client.idle_inhibit_manager, client.surface);
		printf("idle-inhibitor\n");
	}
	wl_surface_commit(client.surface);

	status = run(&client, duration, watch_stdin);

out:
	fw_test_client_undecorate(&client);
	if (client.idle_inhibitor != NULL) {
		zwp_idle_inhibitor_v1_destroy(client.idle_inhibitor);
	}
	if (client.idle_inhibit_manager != NULL) {
		zwp_idle_inhibit_manager_v1_destroy(client.idle_inhibit_manager);
	}
	if (client.activation != NULL) {
		xdg_activation_v1_destroy(client.activation);
	}
	if (client.popup.xdg_popup != NULL) {
		xdg_popup_destroy(client.popup.xdg_popup);
		xdg_surface_destroy(client.popup.xdg_surface);
		wl_surface_destroy(client.popup.surface);
	}
	if (client.toplevel != NULL) {
		xdg_toplevel_destroy(client.toplevel);
		xdg_surface_destroy(client.xdg_surface);
		wl_surface_destroy(client.surface);
	}
	struct test_buffer *buffer, *tmp;
	wl_list_for_each_safe(buffer, tmp, &client.buffers, link) {
		test_buffer_free(buffer);
	}
	if (client.pointer != NULL) {
		wl_pointer_release(client.pointer);
	}
	if (client.keyboard != NULL) {
		wl_keyboard_release(client.keyboard);
	}
	if (client.seat != NULL) {
		if (wl_seat_get_version(client.seat) >= WL_SEAT_RELEASE_SINCE_VERSION) {
			wl_seat_release(client.seat);
		} else {
			wl_seat_destroy(client.seat);
		}
	}
	if (client.wm_base != NULL) {
		xdg_wm_base_destroy(client.wm_base);
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
