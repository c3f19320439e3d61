/*
 * The test client's shm buffers: one solid colour each, and freed only once
 * the compositor has released them.
 */
#include "fw-test-buffer.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void test_buffer_free(struct test_buffer *buffer) {
	if (buffer == NULL) {
		return;
	}
	wl_list_remove(&buffer->link);
	wl_buffer_destroy(buffer->wl_buffer);
	munmap(buffer->data, buffer->size);
	close(buffer->fd);
	free(buffer);
}

static void handle_buffer_release(void *data, struct wl_buffer *wl_buffer) {
	struct test_buffer *buffer = data;
	buffer->busy = false;
	if (buffer->obsolete) {
		test_buffer_free(buffer);
	}
}

static const struct wl_buffer_listener buffer_listener = {
		.release = handle_buffer_release,
};

struct test_buffer *test_buffer_create(struct wl_shm *shm,
		struct wl_list *buffers, int width, int height, uint32_t color,
		uint32_t alpha) {
	struct test_buffer *buffer = calloc(1, sizeof(*buffer));
	if (buffer == NULL) {
		return NULL;
	}
	buffer->width = width;
	buffer->height = height;
	int stride = width * 4;
	buffer->size = (size_t)stride * height;

	int fd = memfd_create("fw-test-client", MFD_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "memfd_create: %s\n", strerror(errno));
		goto err_free;
	}
	if (ftruncate(fd, buffer->size) < 0) {
		fprintf(stderr, "ftruncate: %s\n", strerror(errno));
		goto err_fd;
	}
	buffer->data =
			mmap(NULL, buffer->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (buffer->data == MAP_FAILED) {
		fprintf(stderr, "mmap: %s\n", strerror(errno));
		goto err_fd;
	}
	uint32_t pixel = 0xff000000u | color;
	if (alpha < 255) {
		pixel = alpha << 24;
		for (int shift = 0; shift < 24; shift += 8) {
			pixel |= (((color >> shift) & 0xffu) * alpha / 255) << shift;
		}
	}
	uint32_t *pixels = buffer->data;
	for (size_t i = 0; i < buffer->size / 4; i++) {
		pixels[i] = pixel;
	}

	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, buffer->size);
	buffer->wl_buffer = wl_shm_pool_create_buffer(pool, 0, width, height,
			stride,
			alpha < 255 ? WL_SHM_FORMAT_ARGB8888 : WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	buffer->fd = fd;
	wl_buffer_add_listener(buffer->wl_buffer, &buffer_listener, buffer);
	wl_list_insert(buffers, &buffer->link);
	return buffer;

err_fd:
	close(fd);
err_free:
	free(buffer);
	return NULL;
}

void test_buffer_retire(struct test_buffer *buffer) {
	if (buffer == NULL) {
		return;
	}
	if (buffer->busy) {
		buffer->obsolete = true;
	} else {
		test_buffer_free(buffer);
	}
}

bool test_buffer_show(struct wl_shm *shm, struct wl_list *buffers,
		struct wl_surface *surface, struct test_buffer **slot, int width,
		int height, uint32_t color, uint32_t alpha) {
	struct test_buffer *buffer = *slot;
	if (buffer == NULL || buffer->width != width || buffer->height != height) {
		struct test_buffer *fresh =
				test_buffer_create(shm, buffers, width, height, color, alpha);
		if (fresh == NULL) {
			return false;
		}
		test_buffer_retire(buffer);
		buffer = *slot = fresh;
	}
	wl_surface_attach(surface, buffer->wl_buffer, 0, 0);
	wl_surface_damage_buffer(surface, 0, 0, width, height);
	buffer->busy = true;
	return true;
}
