/*
 * A window that draws a one-pixel black and white checkerboard at the
 * scale the compositor prefers for it, as a toolkit with fractional
 * scaling does: wp_fractional_scale_v1 gives the scale, the buffer has the
 * window's size times that scale, and wp_viewporter shows it at the
 * window's size. On an output of that scale each buffer pixel is one
 * output pixel, so the output shows the checkerboard unblurred.
 *
 * Prints "preferred-scale N" (N in 120ths) for each preferred_scale event,
 * "no-fractional-scale" when the compositor offers none (it then draws at
 * scale 1), "configured W H" for each toplevel configure and "drawn W H BW
 * BH" for each buffer committed (window and buffer size). With
 * --ignore-scale it draws at scale 1 whatever it is told, and the
 * compositor stretches its buffer.
 */
#include "fractional-scale-v1-client-protocol.h"
#include "fw-test-window.h"
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

struct client {
	struct fw_test_globals globals;
	struct wp_fractional_scale_manager_v1 *fractional_manager;

	struct fw_test_window window;
	struct wp_viewport *viewport;
	struct wp_fractional_scale_v1 *fractional;

	int width, height; /* logical */
	uint32_t scale; /* 120ths */
	bool ignore_scale; /* draws at scale 1 whatever it is told */
	bool closed;
};

static void bind_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version) {
	struct client *client = data;
	if (strcmp(interface, wp_fractional_scale_manager_v1_interface.name) == 0) {
		client->fractional_manager = wl_registry_bind(
				registry, name, &wp_fractional_scale_manager_v1_interface, 1);
	}
}

static void buffer_release(void *data, struct wl_buffer *buffer) {
	wl_buffer_destroy(buffer);
}

static const struct wl_buffer_listener buffer_listener = {
		.release = buffer_release,
};

/* The protocol's rounding: half away from zero. */
static int scaled(int size, uint32_t scale) {
	return (int)(((int64_t)size * scale + 60) / 120);
}

static void draw(struct client *client) {
	int width = scaled(client->width, client->scale);
	int height = scaled(client->height, client->scale);
	int stride = width * 4;
	size_t size = (size_t)stride * height;
	int fd = memfd_create("fw-test-fractional", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
		perror("fw-test-fractional: memfd");
		exit(1);
	}
	uint32_t *pixels =
			mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		perror("fw-test-fractional: mmap");
		exit(1);
	}
	for (int y = 0; y < height; y++) {
		for (int x = 0; x < width; x++) {
			pixels[(size_t)y * width + x] =
					(x + y) % 2 == 0 ? 0xff000000 : 0xffffffff;
		}
	}
	munmap(pixels, size);
	struct wl_shm_pool *pool =
			wl_shm_create_pool(client->globals.shm, fd, (int)size);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(
			pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_buffer_add_listener(buffer, &buffer_listener, NULL);

	if (client->viewport != NULL) {
		wp_viewport_set_destination(
				client->viewport, client->width, client->height);
	}
	wl_surface_attach(client->window.surface, buffer, 0, 0);
	wl_surface_damage_buffer(client->window.surface, 0, 0, width, height);
	wl_surface_commit(client->window.surface);
	printf("drawn %d %d %d %d\n", client->width, client->height, width, height);
	fflush(stdout);
}

static void preferred_scale(
		void *data, struct wp_fractional_scale_v1 *fractional, uint32_t scale) {
	struct client *client = data;
	printf("preferred-scale %u\n", scale);
	fflush(stdout);
	if (client->ignore_scale || scale == client->scale) {
		return;
	}
	client->scale = scale;
	if (client->window.configured) {
		draw(client);
	}
}

static const struct wp_fractional_scale_v1_listener fractional_listener = {
		.preferred_scale = preferred_scale,
};

static void window_configure(struct fw_test_window *window) {
	struct client *client = wl_container_of(window, client, window);
	draw(client);
}

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel,
		int32_t width, int32_t height, struct wl_array *states) {
	struct client *client = data;
	if (width > 0 && height > 0) {
		client->width = width;
		client->height = height;
	}
	printf("configured %d %d\n", width, height);
	fflush(stdout);
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
	struct client *client = data;
	client->closed = true;
}

static const struct xdg_toplevel_listener toplevel_listener = {
		.configure = toplevel_configure,
		.close = toplevel_close,
};

static const char usage[] =
		"usage: fw-test-fractional [--size WxH] [--fullscreen] "
		"[--ignore-scale]\n";

int main(int argc, char *argv[]) {
	struct client client = {.width = 200, .height = 150, .scale = 120};
	bool fullscreen = false;
	static const struct option options[] = {
			{"size", required_argument, NULL, 's'},
			{"fullscreen", no_argument, NULL, 'f'},
			{"ignore-scale", no_argument, NULL, 'i'},
			{0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 's' &&
				sscanf(optarg, "%dx%d", &client.width, &client.height) == 2 &&
				client.width > 0 && client.height > 0) {
			continue;
		} else if (opt == 'f') {
			fullscreen = true;
			continue;
		} else if (opt == 'i') {
			client.ignore_scale = true;
			continue;
		}
		fputs(usage, stderr);
		return 2;
	}

	client.globals.bind = bind_global;
	client.globals.data = &client;
	if (!fw_test_window_connect(&client.globals, "fw-test-fractional")) {
		return 1;
	}
	if (client.globals.compositor == NULL || client.globals.shm == NULL ||
			client.globals.wm_base == NULL ||
			client.globals.viewporter == NULL) {
		fprintf(stderr, "fw-test-fractional: a global is missing\n");
		return 1;
	}
	client.window.configure = window_configure;
	fw_test_window_create(
			&client.window, &client.globals, "fw-test-fractional");
	struct wl_surface *surface = client.window.surface;
	client.viewport =
			wp_viewporter_get_viewport(client.globals.viewporter, surface);
	if (client.fractional_manager != NULL) {
		client.fractional = wp_fractional_scale_manager_v1_get_fractional_scale(
				client.fractional_manager, surface);
		wp_fractional_scale_v1_add_listener(
				client.fractional, &fractional_listener, &client);
	} else {
		printf("no-fractional-scale\n");
		fflush(stdout);
	}
	struct xdg_toplevel *toplevel = client.window.toplevel;
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, &client);
	if (fullscreen) {
		xdg_toplevel_set_fullscreen(toplevel, NULL);
	}
	wl_surface_commit(surface);

	struct wl_display *display = client.globals.display;
	while (!client.closed && wl_display_dispatch(display) >= 0) {
	}
	return 0;
}
