/*
 * A screen capturing client that stays connected, as a screen recorder or
 * a VNC server does: it binds wlr-screencopy once, says "bound", and for
 * each line "capture" on stdin copies a frame of the first output into a
 * buffer of its own and prints "ready" or "failed"; "capture FILE" also
 * writes the frame to FILE as a binary PPM, pixel for pixel as the output
 * buffer holds it. It exits when stdin ends. The tests check what a capture
 * gets while the session is locked, and what a scaled output shows.
 */
#include "wlr-screencopy-unstable-v1-client-protocol.h"
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

static struct wl_shm *shm;
static struct wl_output *output;
static struct zwlr_screencopy_manager_v1 *manager;
static struct wl_buffer *buffer;
static void *pixels;
static uint32_t frame_format, frame_width, frame_height, frame_stride;
static bool y_invert;
static char ppm_path[320];

static void registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	if (strcmp(interface, wl_shm_interface.name) == 0) {
		shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, wl_output_interface.name) == 0 &&
			output == NULL) {
		output = wl_registry_bind(registry, name, &wl_output_interface, 1);
	} else if (strcmp(interface, zwlr_screencopy_manager_v1_interface.name) ==
			0) {
		manager = wl_registry_bind(
				registry, name, &zwlr_screencopy_manager_v1_interface, 1);
	}
}

static void registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = registry_global,
		.global_remove = registry_global_remove,
};

/* A buffer of the size the compositor asks for, in a memfd. */
static struct wl_buffer *make_buffer(
		uint32_t format, uint32_t width, uint32_t height, uint32_t stride) {
	size_t size = (size_t)stride * height;
	int fd = memfd_create("fw-test-capture", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
		perror("fw-test-capture: memfd");
		exit(1);
	}
	pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		perror("fw-test-capture: mmap");
		exit(1);
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
	struct wl_buffer *made = wl_shm_pool_create_buffer(
			pool, 0, (int32_t)width, (int32_t)height, (int32_t)stride, format);
	wl_shm_pool_destroy(pool);
	close(fd);
	return made;
}

static void frame_buffer(void *data, struct zwlr_screencopy_frame_v1 *frame,
		uint32_t format, uint32_t width, uint32_t height, uint32_t stride) {
	if (buffer == NULL) {
		buffer = make_buffer(format, width, height, stride);
		frame_format = format;
		frame_width = width;
		frame_height = height;
		frame_stride = stride;
	}
	zwlr_screencopy_frame_v1_copy(frame, buffer);
}

static void frame_flags(
		void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t flags) {
	y_invert = (flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT) != 0;
}

/* The 32-bit formats with 8-bit red, green and blue a pixman output has. */
static bool write_ppm(const char *path) {
	if (frame_format != WL_SHM_FORMAT_XRGB8888 &&
			frame_format != WL_SHM_FORMAT_ARGB8888) {
		fprintf(stderr, "fw-test-capture: format 0x%x not written\n",
				frame_format);
		return false;
	}
	FILE *f = fopen(path, "wb");
	if (f == NULL) {
		perror("fw-test-capture: open");
		return false;
	}
	fprintf(f, "P6\n%u %u\n255\n", frame_width, frame_height);
	for (uint32_t y = 0; y < frame_height; y++) {
		uint32_t row = y_invert ? frame_height - 1 - y : y;
		const uint32_t *in = (const uint32_t *)((const char *)pixels +
				(size_t)row * frame_stride);
		for (uint32_t x = 0; x < frame_width; x++) {
			uint8_t rgb[3] = {in[x] >> 16, in[x] >> 8, in[x]};
			fwrite(rgb, 1, 3, f);
		}
	}
	return fclose(f) == 0;
}

static void frame_done(
		struct zwlr_screencopy_frame_v1 *frame, const char *what) {
	zwlr_screencopy_frame_v1_destroy(frame);
	printf("%s\n", what);
	fflush(stdout);
}

static void frame_ready(void *data, struct zwlr_screencopy_frame_v1 *frame,
		uint32_t sec_hi, uint32_t sec_lo, uint32_t nsec) {
	bool written = ppm_path[0] == '\0' || write_ppm(ppm_path);
	frame_done(frame, written ? "ready" : "failed");
}

static void frame_failed(void *data, struct zwlr_screencopy_frame_v1 *frame) {
	frame_done(frame, "failed");
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = {
		.buffer = frame_buffer,
		.flags = frame_flags,
		.ready = frame_ready,
		.failed = frame_failed,
};

int main(void) {
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-test-capture: cannot connect\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (shm == NULL || output == NULL || manager == NULL) {
		fprintf(stderr,
				"fw-test-capture: no wl_shm, wl_output or screencopy\n");
		return 1;
	}
	printf("bound\n");
	fflush(stdout);
	char line[320];
	size_t len = 0;
	for (;;) {
		wl_display_flush(display);
		struct pollfd fds[] = {
				{.fd = wl_display_get_fd(display), .events = POLLIN},
				{.fd = STDIN_FILENO, .events = POLLIN},
		};
		if (poll(fds, 2, -1) < 0) {
			continue;
		}
		if (fds[0].revents != 0 && wl_display_dispatch(display) < 0) {
			fprintf(stderr, "fw-test-capture: lost the compositor\n");
			return 1;
		}
		if (fds[1].revents == 0) {
			continue;
		}
		char c;
		if (read(STDIN_FILENO, &c, 1) != 1) {
			return 0;
		}
		if (c != '\n') {
			if (len < sizeof(line) - 1) {
				line[len++] = c;
			}
			continue;
		}
		line[len] = '\0';
		len = 0;
		bool to_file = strncmp(line, "capture ", 8) == 0;
		if (to_file) {
			snprintf(ppm_path, sizeof(ppm_path), "%s", line + 8);
		}
		if (strcmp(line, "capture") == 0 || to_file) {
			if (!to_file) {
				ppm_path[0] = '\0';
			}
			struct zwlr_screencopy_frame_v1 *frame =
					zwlr_screencopy_manager_v1_capture_output(
							manager, 0, output);
			zwlr_screencopy_frame_v1_add_listener(frame, &frame_listener, NULL);
		}
	}
}
