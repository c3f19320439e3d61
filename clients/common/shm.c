#include "clients/common/shm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int fw_memfd_create(const char *name, size_t size) {
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		return -1;
	}
	if (ftruncate(fd, (off_t)size) < 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	/* The compositor maps this file; it must never shrink under it. */
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
	return fd;
}

static void handle_buffer_release(void *data, struct wl_buffer *wl_buffer) {
	struct fw_buffer *buffer = data;
	buffer->busy = false;
}

static const struct wl_buffer_listener buffer_listener = {
		.release = handle_buffer_release,
};

struct fw_shm_pool *fw_shm_pool_create(
		struct wl_shm *shm, int width, int height, int count) {
	if (width <= 0 || height <= 0 || count <= 0 || count > FW_SHM_MAX_BUFFERS) {
		return NULL;
	}
	struct fw_shm_pool *pool = calloc(1, sizeof(*pool));
	if (pool == NULL) {
		return NULL;
	}
	int stride = width * 4;
	size_t buffer_size = (size_t)stride * (size_t)height;
	pool->size = buffer_size * (size_t)count;
	pool->count = count;
	if (pool->size > INT32_MAX) {
		goto err_free;
	}

	pool->fd = fw_memfd_create("fairway-shm", pool->size);
	if (pool->fd < 0) {
		fprintf(stderr, "memfd_create: %m\n");
		goto err_free;
	}
	pool->data = mmap(
			NULL, pool->size, PROT_READ | PROT_WRITE, MAP_SHARED, pool->fd, 0);
	if (pool->data == MAP_FAILED) {
		fprintf(stderr, "mmap: %m\n");
		goto err_close;
	}
	pool->wl_pool = wl_shm_create_pool(shm, pool->fd, (int32_t)pool->size);
	if (pool->wl_pool == NULL) {
		goto err_unmap;
	}
	for (int i = 0; i < count; i++) {
		struct fw_buffer *buffer = &pool->buffers[i];
		int32_t offset = (int32_t)(buffer_size * (size_t)i);
		buffer->wl_buffer = wl_shm_pool_create_buffer(pool->wl_pool, offset,
				width, height, stride, WL_SHM_FORMAT_XRGB8888);
		if (buffer->wl_buffer == NULL) {
			goto err_buffers;
		}
		wl_buffer_add_listener(buffer->wl_buffer, &buffer_listener, buffer);
		buffer->pixels = (uint32_t *)((char *)pool->data + offset);
		buffer->width = width;
		buffer->height = height;
		buffer->stride = stride;
	}
	return pool;

err_buffers:
	for (int i = 0; i < count; i++) {
		if (pool->buffers[i].wl_buffer != NULL) {
			wl_buffer_destroy(pool->buffers[i].wl_buffer);
		}
	}
	wl_shm_pool_destroy(pool->wl_pool);
err_unmap:
	munmap(pool->data, pool->size);
err_close:
	close(pool->fd);
err_free:
	free(pool);
	return NULL;
}

void fw_shm_pool_destroy(struct fw_shm_pool *pool) {
	if (pool == NULL) {
		return;
	}
	for (int i = 0; i < pool->count; i++) {
		wl_buffer_destroy(pool->buffers[i].wl_buffer);
	}
	wl_shm_pool_destroy(pool->wl_pool);
	munmap(pool->data, pool->size);
	close(pool->fd);
	free(pool);
}

struct fw_buffer *fw_shm_pool_acquire(struct fw_shm_pool *pool) {
	for (int i = 0; i < pool->count; i++) {
		if (!pool->buffers[i].busy) {
			return &pool->buffers[i];
		}
	}
	return NULL;
}

void fw_buffer_attach(struct fw_buffer *buffer, struct wl_surface *surface) {
	wl_surface_attach(surface, buffer->wl_buffer, 0, 0);
	buffer->busy = true;
}
