/*
 * A window for the paint tests: what it commits, and what of it the
 * compositor says it presented.
 *
 *   --color RRGGBB   its colour (default 3366cc), --size WxH (400x300)
 *   --animate        a new frame on every frame done, between --color and
 *                    --color2 (default cc3366), full damage
 *   --grow-pool      grow its pool (wl_shm_pool.resize) by 64 KiB every
 *                    5 ms, whatever the compositor is doing meanwhile
 *   --feedback       "presented NS" (CLOCK_MONOTONIC) or "discarded" for
 *                    each commit
 *
 * Its keyboard focus: "keyboard-enter", and "keyboard-leave NS" with the
 * CLOCK_MONOTONIC time the leave arrived.
 *
 * Commands on stdin, one a line: "rect X Y W H RRGGBB" paints that
 * rectangle and damages only it; "stop" ends the animation on --color.
 * Each command's frame, once presented, prints "shown N" (N counts them).
 * "mapped" once the first frame is shown. Exits when stdin closes.
 */
#include <errno.h>
#include <getopt.h>
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

#include "fw-test-lines.h"
#include "presentation-time-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define BUFFERS 3

struct buffer {
	struct wl_buffer *wl_buffer;
	uint32_t *pixels;
	bool busy;
};

struct client {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wp_presentation *presentation;
	struct wl_seat *seat;
	struct wl_keyboard *keyboard;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;

	int width, height;
	uint32_t color, color2;
	bool animate, grow_pool, feedback;

	int fd;
	struct wl_shm_pool *pool;
	uint8_t *data;
	size_t pool_size;
	struct buffer buffers[BUFFERS];

	/* What every buffer shows: rebuilt into the buffer to commit. */
	uint32_t *image;
	bool configured, mapped, running;
	struct wl_callback *frame;
	uint64_t frames;
	int commands;
	struct fw_test_lines lines;
};

static void die(const char *what) {
	fprintf(stderr, "fw-paint-client: %s\n", what);
	exit(1);
}

static void handle_release(void *data, struct wl_buffer *wl_buffer) {
	struct buffer *buffer = data;
	buffer->busy = false;
}

static const struct wl_buffer_listener buffer_listener = {
		.release = handle_release,
};

static size_t frame_size(struct client *c) {
	return (size_t)c->width * (size_t)c->height * 4;
}

/* A buffer the compositor does not hold. */
static struct buffer *next_buffer(struct client *c) {
	for (int i = 0; i < BUFFERS; i++) {
		if (!c->buffers[i].busy) {
			return &c->buffers[i];
		}
	}
	return NULL;
}

/* --grow-pool: the pool grows, its buffers stay where they are. */
static void grow_pool(struct client *c) {
	c->pool_size += 64 * 1024;
	if (ftruncate(c->fd, (off_t)c->pool_size) < 0) {
		die("ftruncate");
	}
	wl_shm_pool_resize(c->pool, (int32_t)c->pool_size);
}

static void make_pool(struct client *c) {
	c->fd = memfd_create("fw-paint-client", MFD_CLOEXEC);
	size_t size = frame_size(c);
	c->pool_size = size * BUFFERS;
	if (c->fd < 0 || ftruncate(c->fd, (off_t)c->pool_size) < 0) {
		die("cannot make the pool");
	}
	c->data = mmap(
			NULL, c->pool_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (c->data == MAP_FAILED) {
		die("mmap");
	}
	c->pool = wl_shm_create_pool(c->shm, c->fd, (int32_t)c->pool_size);
	for (int i = 0; i < BUFFERS; i++) {
		struct buffer *b = &c->buffers[i];
		b->pixels = (uint32_t *)(c->data + (size_t)i * size);
		b->wl_buffer = wl_shm_pool_create_buffer(c->pool, (int32_t)(i * size),
				c->width, c->height, c->width * 4, WL_SHM_FORMAT_XRGB8888);
		wl_buffer_add_listener(b->wl_buffer, &buffer_listener, b);
	}
}

static void fill(struct client *c, int x, int y, int w, int h, uint32_t color) {
	for (int row = y; row < y + h && row < c->height; row++) {
		for (int col = x; col < x + w && col < c->width; col++) {
			if (row >= 0 && col >= 0) {
				c->image[(size_t)row * (size_t)c->width + (size_t)col] =
						0xff000000u | color;
			}
		}
	}
}

struct feedback {
	struct client *client;
	int command; /* the command this frame shows; 0: none */
};

static void handle_sync_output(void *data,
		struct wp_presentation_feedback *feedback, struct wl_output *output) {
}

static void handle_presented(void *data,
		struct wp_presentation_feedback *wp_feedback, uint32_t tv_sec_hi,
		uint32_t tv_sec_lo, uint32_t tv_nsec, uint32_t refresh, uint32_t seq_hi,
		uint32_t seq_lo, uint32_t flags) {
	struct feedback *feedback = data;
	struct client *c = feedback->client;
	if (c->feedback) {
		uint64_t sec = ((uint64_t)tv_sec_hi << 32) | tv_sec_lo;
		printf("presented %llu\n",
				(unsigned long long)(sec * 1000000000u + tv_nsec));
	}
	if (feedback->command > 0) {
		printf("shown %d\n", feedback->command);
	}
	fflush(stdout);
	wp_presentation_feedback_destroy(wp_feedback);
	free(feedback);
}

static void handle_discarded(
		void *data, struct wp_presentation_feedback *wp_feedback) {
	struct feedback *feedback = data;
	if (feedback->client->feedback) {
		printf("discarded\n");
		fflush(stdout);
	}
	wp_presentation_feedback_destroy(wp_feedback);
	free(feedback);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
		.sync_output = handle_sync_output,
		.presented = handle_presented,
		.discarded = handle_discarded,
};

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time);

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

/* Commits the image; damage: the rectangle that changed, NULL for all. */
static bool commit(struct client *c, const int *damage, int command) {
	struct buffer *b = next_buffer(c);
	if (b == NULL) {
		return false;
	}
	memcpy(b->pixels, c->image, frame_size(c));
	wl_surface_attach(c->surface, b->wl_buffer, 0, 0);
	if (damage != NULL) {
		wl_surface_damage_buffer(
				c->surface, damage[0], damage[1], damage[2], damage[3]);
	} else {
		wl_surface_damage_buffer(c->surface, 0, 0, c->width, c->height);
	}
	b->busy = true;
	struct feedback *feedback = calloc(1, sizeof(*feedback));
	if (feedback == NULL) {
		die("out of memory");
	}
	feedback->client = c;
	feedback->command = command;
	struct wp_presentation_feedback *wp_feedback =
			wp_presentation_feedback(c->presentation, c->surface);
	wp_presentation_feedback_add_listener(
			wp_feedback, &feedback_listener, feedback);
	if (c->frame == NULL) {
		c->frame = wl_surface_frame(c->surface);
		wl_callback_add_listener(c->frame, &frame_listener, c);
	}
	wl_surface_commit(c->surface);
	c->frames++;
	return true;
}

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct client *c = data;
	wl_callback_destroy(callback);
	c->frame = NULL;
	if (!c->mapped) {
		c->mapped = true;
		printf("mapped\n");
		fflush(stdout);
	}
	if (c->animate) {
		fill(c, 0, 0, c->width, c->height,
				c->frames % 2 == 0 ? c->color : c->color2);
		commit(c, NULL, 0);
	}
}

static void run_command(void *data, char *line) {
	struct client *c = data;
	int x, y, w, h;
	unsigned color;
	if (sscanf(line, "rect %d %d %d %d %x", &x, &y, &w, &h, &color) == 5) {
		fill(c, x, y, w, h, color);
		const int damage[4] = {x, y, w, h};
		if (!commit(c, damage, ++c->commands)) {
			die("no buffer free");
		}
	} else if (strcmp(line, "stop") == 0) {
		c->animate = false;
		fill(c, 0, 0, c->width, c->height, c->color);
		if (!commit(c, NULL, ++c->commands)) {
			die("no buffer free");
		}
	} else {
		fprintf(stderr, "fw-paint-client: unknown command: %s\n", line);
	}
}

static void handle_keymap(void *data, struct wl_keyboard *keyboard,
		uint32_t format, int32_t fd, uint32_t size) {
	close(fd);
}

static void handle_enter(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface, struct wl_array *keys) {
	printf("keyboard-enter\n");
	fflush(stdout);
}

static void handle_leave(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("keyboard-leave %llu\n",
			(unsigned long long)now.tv_sec * 1000000000u +
					(unsigned long long)now.tv_nsec);
	fflush(stdout);
}

static void handle_key(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t time, uint32_t key, uint32_t state) {
}

static void handle_modifiers(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t depressed, uint32_t latched, uint32_t locked,
		uint32_t group) {
}

static void handle_repeat_info(
		void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
}

static const struct wl_keyboard_listener keyboard_listener = {
		.keymap = handle_keymap,
		.enter = handle_enter,
		.leave = handle_leave,
		.key = handle_key,
		.modifiers = handle_modifiers,
		.repeat_info = handle_repeat_info,
};

static void handle_seat_capabilities(
		void *data, struct wl_seat *seat, uint32_t caps) {
	struct client *c = data;
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && c->keyboard == NULL) {
		c->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(c->keyboard, &keyboard_listener, c);
	}
}

static void handle_seat_name(void *data, struct wl_seat *seat, const char *n) {
}

static const struct wl_seat_listener seat_listener = {
		.capabilities = handle_seat_capabilities,
		.name = handle_seat_name,
};

static void handle_ping(void *data, struct xdg_wm_base *wm_base, uint32_t s) {
	xdg_wm_base_pong(wm_base, s);
}

static const struct xdg_wm_base_listener wm_base_listener = {
		.ping = handle_ping,
};

static void handle_surface_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct client *c = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	if (!c->configured) {
		c->configured = true;
		commit(c, NULL, 0);
	}
}

static const struct xdg_surface_listener surface_listener = {
		.configure = handle_surface_configure,
};

static void handle_toplevel_configure(void *data, struct xdg_toplevel *toplevel,
		int32_t width, int32_t height, struct wl_array *states) {
}

static void handle_toplevel_close(void *data, struct xdg_toplevel *toplevel) {
}

static const struct xdg_toplevel_listener toplevel_listener = {
		.configure = handle_toplevel_configure,
		.close = handle_toplevel_close,
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct client *c = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		c->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		c->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		c->wm_base =
				wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(c->wm_base, &wm_base_listener, c);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 &&
			c->seat == NULL) {
		c->seat = wl_registry_bind(registry, name, &wl_seat_interface, 4);
		wl_seat_add_listener(c->seat, &seat_listener, c);
	} else if (strcmp(interface, wp_presentation_interface.name) == 0) {
		c->presentation =
				wl_registry_bind(registry, name, &wp_presentation_interface, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

static void parse(struct client *c, int argc, char **argv) {
	static const struct option options[] = {
			{"color", required_argument, NULL, 'c'},
			{"color2", required_argument, NULL, 'C'},
			{"size", required_argument, NULL, 's'},
			{"animate", no_argument, NULL, 'a'},
			{"grow-pool", no_argument, NULL, 'g'},
			{"feedback", no_argument, NULL, 'f'},
			{0},
	};
	c->width = 400;
	c->height = 300;
	c->color = 0x3366cc;
	c->color2 = 0xcc3366;
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			c->color = (uint32_t)strtoul(optarg, NULL, 16);
			break;
		case 'C':
			c->color2 = (uint32_t)strtoul(optarg, NULL, 16);
			break;
		case 's':
			if (sscanf(optarg, "%dx%d", &c->width, &c->height) != 2 ||
					c->width <= 0 || c->height <= 0) {
				fprintf(stderr, "usage: fw-paint-client [--size WxH]...\n");
				exit(2);
			}
			break;
		case 'a':
			c->animate = true;
			break;
		case 'g':
			c->grow_pool = true;
			break;
		case 'f':
			c->feedback = true;
			break;
		default:
			fprintf(stderr, "usage: fw-paint-client [options] (see source)\n");
			exit(2);
		}
	}
}

int main(int argc, char **argv) {
	struct client c = {0};
	parse(&c, argc, argv);
	c.display = wl_display_connect(NULL);
	if (c.display == NULL) {
		die("cannot connect");
	}
	struct wl_registry *registry = wl_display_get_registry(c.display);
	wl_registry_add_listener(registry, &registry_listener, &c);
	wl_display_roundtrip(c.display);
	if (c.compositor == NULL || c.shm == NULL || c.wm_base == NULL ||
			c.presentation == NULL) {
		die("missing globals");
	}
	c.image = calloc(frame_size(&c) / 4, sizeof(uint32_t));
	if (c.image == NULL) {
		die("out of memory");
	}
	fill(&c, 0, 0, c.width, c.height, c.color);
	make_pool(&c);
	c.surface = wl_compositor_create_surface(c.compositor);
	c.xdg_surface = xdg_wm_base_get_xdg_surface(c.wm_base, c.surface);
	xdg_surface_add_listener(c.xdg_surface, &surface_listener, &c);
	c.toplevel = xdg_surface_get_toplevel(c.xdg_surface);
	xdg_toplevel_add_listener(c.toplevel, &toplevel_listener, &c);
	xdg_toplevel_set_title(c.toplevel, "fw-paint-client");
	wl_surface_commit(c.surface);

	struct pollfd fds[2] = {
			{.fd = wl_display_get_fd(c.display), .events = POLLIN},
			{.fd = STDIN_FILENO, .events = POLLIN},
	};
	c.running = true;
	while (c.running) {
		if (wl_display_flush(c.display) < 0 && errno != EAGAIN) {
			die("lost the compositor");
		}
		if (poll(fds, 2, c.grow_pool ? 5 : -1) < 0 && errno != EINTR) {
			die("poll");
		}
		if (fds[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			if (wl_display_dispatch(c.display) < 0) {
				die("lost the compositor");
			}
		}
		if (fds[1].revents & (POLLIN | POLLHUP)) {
			c.running =
					fw_test_lines_read(&c.lines, STDIN_FILENO, run_command, &c);
		}
		if (c.grow_pool && c.configured) {
			grow_pool(&c);
		}
	}
	wl_display_disconnect(c.display);
	return 0;
}
