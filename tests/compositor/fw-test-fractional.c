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
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"
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
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wp_viewporter *viewporter;
	struct wp_fractional_scale_manager_v1 *fractional_manager;

	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wp_viewport *viewport;
	struct wp_fractional_scale_v1 *fractional;

	int width, height; /* logical */
	uint32_t scale; /* 120ths */
	bool configured;
	bool ignore_scale; /* draws at scale 1 whatever it is told */
	bool closed;
};

static void registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct client *client = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		client->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		client->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		client->wm_base =
				wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
	} else if (strcmp(interface, wp_viewporter_interface.name) == 0) {
		client->viewporter =
				wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
	} else if (strcmp(interface,
					   wp_fractional_scale_manager_v1_interface.name) == 0) {
		client->fractional_manager = wl_registry_bind(
				registry, name, &wp_fractional_scale_manager_v1_interface, 1);
	}
}

static void registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = registry_global,
		.global_remove = registry_global_remove,
};

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
	struct wl_shm_pool *pool = wl_shm_create_pool(client->shm, fd, (int)size);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(
			pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_buffer_add_listener(buffer, &buffer_listener, NULL);

	if (client->viewport != NULL) {
		wp_viewport_set_destination(
				client->viewport, client->width, client->height);
	}
	wl_surface_attach(client->surface, buffer, 0, 0);
	wl_surface_damage_buffer(client->surface, 0, 0, width, height);
	wl_surface_commit(client->surface);
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
	if (client->configured) {
		draw(client);
	}
}

static const struct wp_fractional_scale_v1_listener fractional_listener = {
		.preferred_scale = preferred_scale,
};

static void wm_base_ping(
		void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
		.ping = wm_base_ping,
};

static void xdg_surface_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct client *client = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	client->configured = true;
	draw(client);
}

static const struct xdg_surface_listener xdg_surface_listener = {
		.configure = xdg_surface_configure,
};

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

	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-test-fractional: cannot connect\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &client);
	wl_display_roundtrip(display);
	if (client.compositor == NULL || client.shm == NULL ||
			client.wm_base == NULL || client.viewporter == NULL) {
		fprintf(stderr, "fw-test-fractional: a global is missing\n");
		return 1;
	}
	xdg_wm_base_add_listener(client.wm_base, &wm_base_listener, NULL);
	client.surface = wl_compositor_create_surface(client.compositor);
	client.viewport =
			wp_viewporter_get_viewport(client.viewporter, client.surface);
	if (client.fractional_manager != NULL) {
		client.fractional = wp_fractional_scale_manager_v1_get_fractional_scale(
				client.fractional_manager, client.surface);
		wp_fractional_scale_v1_add_listener(
				client.fractional, &fractional_listener, &client);
	} else {
		printf("no-fractional-scale\n");
		fflush(stdout);
	}
	client.xdg_surface =
			xdg_wm_base_get_xdg_surface(client.wm_base, client.surface);
	xdg_surface_add_listener(
			client.xdg_surface, &xdg_surface_listener, &client);
	client.toplevel = xdg_surface_get_toplevel(client.xdg_surface);
	xdg_toplevel_add_listener(client.toplevel, &toplevel_listener, &client);
	xdg_toplevel_set_title(client.toplevel, "fw-test-fractional");
	if (fullscreen) {
		xdg_toplevel_set_fullscreen(client.toplevel, NULL);
	}
	wl_surface_commit(client.surface);

	while (!client.closed && wl_display_dispatch(display) >= 0) {
	}
	return 0;
}
