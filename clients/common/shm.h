#ifndef FAIRWAY_CLIENTS_COMMON_SHM_H
#define FAIRWAY_CLIENTS_COMMON_SHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

#define FW_SHM_MAX_BUFFERS 4

struct fw_shm_pool;

/* One XRGB8888 buffer in a pool; busy from attach until wl_buffer.release. */
struct fw_buffer {
	struct wl_buffer *wl_buffer;
	uint32_t *pixels;
	int width, height, stride;
	bool busy;
	bool painted; /* for the client's own use: whether it drew into it */
};

/*
 * A memfd-backed wl_shm_pool cut into `count` equal buffers, so that a
 * client can draw into one while the compositor still holds the others
 * (double or triple buffering).
 */
struct fw_shm_pool {
	int fd;
	struct wl_shm_pool *wl_pool;
	void *data;
	size_t size;
	int count;
	struct fw_buffer buffers[FW_SHM_MAX_BUFFERS];
};

/* A sealed-size anonymous file of `size` bytes; -1 on error (errno set). */
int fw_memfd_create(const char *name, size_t size);

struct fw_shm_pool *fw_shm_pool_create(
		struct wl_shm *shm, int width, int height, int count);

void fw_shm_pool_destroy(struct fw_shm_pool *pool);

/* A buffer the compositor does not hold, or NULL when all are busy. */
struct fw_buffer *fw_shm_pool_acquire(struct fw_shm_pool *pool);

/* Attaches the buffer and marks it busy until the compositor releases it. */
void fw_buffer_attach(struct fw_buffer *buffer, struct wl_surface *surface);

#endif
