#include "compositor/output/shm.h"
#include "compositor/output/shm_guard.h"
#include <drm_fourcc.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <wlr/interfaces/wlr_buffer.h>
#include <wlr/render/drm_format_set.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/util/log.h>

#define SHM_VERSION 2

struct fw_shm {
	struct wl_global *global;
	uint32_t *formats; /* wl_shm's codes */
	size_t formats_len;
	struct wl_listener display_destroy;
};

/* One mmap of a pool's file, held by the pool and by each buffer made
 * while it was the pool's. */
struct shm_mapping {
	void *data;
	size_t size;
	int refs;
	/* A read faulted and zeros are mapped over it: set in the handler. */
	volatile sig_atomic_t faulted;
};

struct shm_pool {
	struct wl_resource *resource; /* NULL once the client destroyed it */
	struct fw_shm *shm;
	int fd;
	struct shm_mapping *mapping;
	int refs; /* the resource's and each buffer's */
};

struct shm_buffer {
	struct wlr_buffer base;
	struct wl_resource *resource; /* NULL once the client destroyed it */
	struct shm_pool *pool;
	struct shm_mapping *mapping;
	uint32_t drm_format;
	int32_t stride;
	int32_t offset;
	struct wl_listener release;
	/* The next of this thread's open accesses, while this one is open. */
	struct shm_buffer *next_access;
};

/* The calling thread's open data accesses, newest first: read by the
 * SIGBUS handler, which runs on the faulting thread. */
static _Thread_local struct shm_buffer *volatile accessing;
/* The handler found when fairway's was installed, for faults not its own. */
static struct sigaction chained;

static const struct wl_buffer_interface buffer_impl;
static const struct wl_shm_pool_interface pool_impl;
static const struct wl_shm_interface shm_impl;

static uint32_t shm_code_from_drm(uint32_t drm_format) {
	switch (drm_format) {
	case DRM_FORMAT_ARGB8888:
		return WL_SHM_FORMAT_ARGB8888;
	case DRM_FORMAT_XRGB8888:
		return WL_SHM_FORMAT_XRGB8888;
	default:
		return drm_format;
	}
}

static uint32_t drm_from_shm_code(uint32_t code) {
	switch (code) {
	case WL_SHM_FORMAT_ARGB8888:
		return DRM_FORMAT_ARGB8888;
	case WL_SHM_FORMAT_XRGB8888:
		return DRM_FORMAT_XRGB8888;
	default:
		return code;
	}
}

/* 0 for a format fairway does not offer: planar, packed in blocks. */
static int bytes_per_pixel(uint32_t drm_format) {
	switch (drm_format) {
	case DRM_FORMAT_R8:
		return 1;
	case DRM_FORMAT_RGB565:
	case DRM_FORMAT_BGR565:
	case DRM_FORMAT_XRGB4444:
	case DRM_FORMAT_ARGB4444:
	case DRM_FORMAT_XBGR4444:
	case DRM_FORMAT_ABGR4444:
	case DRM_FORMAT_RGBX4444:
	case DRM_FORMAT_RGBA4444:
	case DRM_FORMAT_BGRX4444:
	case DRM_FORMAT_BGRA4444:
	case DRM_FORMAT_XRGB1555:
	case DRM_FORMAT_ARGB1555:
	case DRM_FORMAT_XBGR1555:
	case DRM_FORMAT_ABGR1555:
	case DRM_FORMAT_RGBX5551:
	case DRM_FORMAT_RGBA5551:
	case DRM_FORMAT_BGRX5551:
	case DRM_FORMAT_BGRA5551:
	case DRM_FORMAT_GR88:
	case DRM_FORMAT_R16:
		return 2;
	case DRM_FORMAT_RGB888:
	case DRM_FORMAT_BGR888:
		return 3;
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_RGBX8888:
	case DRM_FORMAT_RGBA8888:
	case DRM_FORMAT_BGRX8888:
	case DRM_FORMAT_BGRA8888:
	case DRM_FORMAT_XRGB2101010:
	case DRM_FORMAT_ARGB2101010:
	case DRM_FORMAT_XBGR2101010:
	case DRM_FORMAT_ABGR2101010:
	case DRM_FORMAT_RGBX1010102:
	case DRM_FORMAT_RGBA1010102:
	case DRM_FORMAT_BGRX1010102:
	case DRM_FORMAT_BGRA1010102:
	case DRM_FORMAT_GR1616:
		return 4;
	case DRM_FORMAT_XRGB16161616:
	case DRM_FORMAT_ARGB16161616:
	case DRM_FORMAT_XBGR16161616:
	case DRM_FORMAT_ABGR16161616:
	case DRM_FORMAT_XRGB16161616F:
	case DRM_FORMAT_ARGB16161616F:
	case DRM_FORMAT_XBGR16161616F:
	case DRM_FORMAT_ABGR16161616F:
		return 8;
	default:
		return 0;
	}
}

static void handle_sigbus(int signum, siginfo_t *info, void *context) {
	const char *addr = info->si_addr;
	for (struct shm_buffer *buffer = accessing; buffer != NULL;
			buffer = buffer->next_access) {
		struct shm_mapping *mapping = buffer->mapping;
		const char *start = mapping->data;
		if (info->si_code <= 0 || addr < start ||
				addr >= start + mapping->size) {
			continue;
		}
		/* mmap is not on POSIX's list of safe calls, but is a system
		 * call with no lock of libc's. */
		if (mmap(mapping->data, mapping->size, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1,
					0) == MAP_FAILED) {
			break;
		}
		mapping->faulted = 1;
		return;
	}
	/* The paint's reads, made outside any data access. */
	if (fw_shm_guard_handle(info)) {
		return;
	}
	if (chained.sa_flags & SA_SIGINFO) {
		chained.sa_sigaction(signum, info, context);
	} else if (chained.sa_handler != SIG_DFL && chained.sa_handler != SIG_IGN) {
		chained.sa_handler(signum);
	} else {
		/* The faulting access, run again, ends the process as it would
		 * have without fairway. */
		struct sigaction dfl = {.sa_handler = SIG_DFL};
		sigemptyset(&dfl.sa_mask);
		sigaction(SIGBUS, &dfl, NULL);
	}
}

static bool install_sigbus_handler(void) {
	static bool installed;
	if (installed) {
		return true;
	}
	struct sigaction action = {
			.sa_sigaction = handle_sigbus,
			.sa_flags = SA_SIGINFO | SA_NODEFER,
	};
	sigemptyset(&action.sa_mask);
	if (sigaction(SIGBUS, &action, &chained) != 0) {
		wlr_log_errno(WLR_ERROR, "wl_shm: cannot install a SIGBUS handler");
		return false;
	}
	installed = true;
	return true;
}

static struct shm_mapping *mapping_create(int fd, size_t size) {
	struct shm_mapping *mapping = calloc(1, sizeof(*mapping));
	if (mapping == NULL) {
		return NULL;
	}
	mapping->data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mapping->data == MAP_FAILED) {
		wlr_log_errno(WLR_DEBUG, "wl_shm: cannot map a pool");
		free(mapping);
		return NULL;
	}
	mapping->size = size;
	mapping->refs = 1;
	return mapping;
}

static void mapping_unref(struct shm_mapping *mapping) {
	if (--mapping->refs > 0) {
		return;
	}
	munmap(mapping->data, mapping->size);
	free(mapping);
}

static void pool_unref(struct shm_pool *pool) {
	if (--pool->refs > 0) {
		return;
	}
	mapping_unref(pool->mapping);
	close(pool->fd);
	free(pool);
}

static struct shm_buffer *buffer_from_wlr(struct wlr_buffer *wlr_buffer) {
	struct shm_buffer *buffer = wl_container_of(wlr_buffer, buffer, base);
	return buffer;
}

static void buffer_destroy(struct wlr_buffer *wlr_buffer) {
	struct shm_buffer *buffer = buffer_from_wlr(wlr_buffer);
	wl_list_remove(&buffer->release.link);
	mapping_unref(buffer->mapping);
	pool_unref(buffer->pool);
	free(buffer);
}

static bool buffer_get_shm(
		struct wlr_buffer *wlr_buffer, struct wlr_shm_attributes *attribs) {
	struct shm_buffer *buffer = buffer_from_wlr(wlr_buffer);
	*attribs = (struct wlr_shm_attributes){
			.fd = buffer->pool->fd,
			.format = buffer->drm_format,
			.width = wlr_buffer->width,
			.height = wlr_buffer->height,
			.stride = buffer->stride,
			.offset = buffer->offset,
	};
	return true;
}

static bool buffer_begin_data_ptr_access(struct wlr_buffer *wlr_buffer,
		uint32_t flags, void **data, uint32_t *format, size_t *stride) {
	struct shm_buffer *buffer = buffer_from_wlr(wlr_buffer);
	buffer->next_access = accessing;
	/* Linked before it is published: the handler may run between. */
	atomic_signal_fence(memory_order_seq_cst);
	accessing = buffer;
	*data = (char *)buffer->mapping->data + buffer->offset;
	*format = buffer->drm_format;
	*stride = (size_t)buffer->stride;
	return true;
}

static void buffer_end_data_ptr_access(struct wlr_buffer *wlr_buffer) {
	struct shm_buffer *buffer = buffer_from_wlr(wlr_buffer);
	if (accessing == buffer) {
		accessing = buffer->next_access;
	} else {
		for (struct shm_buffer *cur = accessing; cur != NULL;
				cur = cur->next_access) {
			if (cur->next_access == buffer) {
				cur->next_access = buffer->next_access;
				break;
			}
		}
	}
	buffer->next_access = NULL;
	if (buffer->mapping->faulted && buffer->resource != NULL) {
		/* Once the client is in error, libwayland sends no more. */
		wl_resource_post_error(buffer->resource, WL_SHM_ERROR_INVALID_FD,
				"error accessing SHM buffer: its pool was truncated");
	}
}

static const struct wlr_buffer_impl wlr_buffer_impl = {
		.destroy = buffer_destroy,
		.get_shm = buffer_get_shm,
		.begin_data_ptr_access = buffer_begin_data_ptr_access,
		.end_data_ptr_access = buffer_end_data_ptr_access,
};

static bool buffer_is_instance(struct wl_resource *resource) {
	return wl_resource_instance_of(
			resource, &wl_buffer_interface, &buffer_impl);
}

static struct wlr_buffer *buffer_from_resource(struct wl_resource *resource) {
	struct shm_buffer *buffer = wl_resource_get_user_data(resource);
	return &buffer->base;
}

static const struct wlr_buffer_resource_interface buffer_resource_interface = {
		.name = "fw_shm",
		.is_instance = buffer_is_instance,
		.from_resource = buffer_from_resource,
};

static void handle_destroy_request(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct wl_buffer_interface buffer_impl = {
		.destroy = handle_destroy_request,
};

static void handle_buffer_release(struct wl_listener *listener, void *data) {
	struct shm_buffer *buffer = wl_container_of(listener, buffer, release);
	if (buffer->resource != NULL) {
		wl_buffer_send_release(buffer->resource);
	}
}

static void handle_buffer_resource_destroy(struct wl_resource *resource) {
	struct shm_buffer *buffer = wl_resource_get_user_data(resource);
	buffer->resource = NULL;
	wlr_buffer_drop(&buffer->base);
}

static bool shm_offers(const struct fw_shm *shm, uint32_t code) {
	for (size_t i = 0; i < shm->formats_len; i++) {
		if (shm->formats[i] == code) {
			return true;
		}
	}
	return false;
}

static void handle_create_buffer(struct wl_client *client,
		struct wl_resource *pool_resource, uint32_t id, int32_t offset,
		int32_t width, int32_t height, int32_t stride, uint32_t code) {
	struct shm_pool *pool = wl_resource_get_user_data(pool_resource);
	if (!shm_offers(pool->shm, code)) {
		wl_resource_post_error(pool_resource, WL_SHM_ERROR_INVALID_FORMAT,
				"format 0x%08x is not offered", code);
		return;
	}
	uint32_t drm_format = drm_from_shm_code(code);
	int64_t bpp = bytes_per_pixel(drm_format);
	if (offset < 0 || width <= 0 || height <= 0 || stride < width * bpp ||
			stride % bpp != 0 ||
			(uint64_t)offset + (uint64_t)stride * (uint64_t)height >
					pool->mapping->size) {
		wl_resource_post_error(pool_resource, WL_SHM_ERROR_INVALID_STRIDE,
				"invalid offset, size or stride (%d, %dx%d, %d) for a "
				"%zu-byte pool",
				offset, width, height, stride, pool->mapping->size);
		return;
	}
	struct shm_buffer *buffer = calloc(1, sizeof(*buffer));
	if (buffer == NULL) {
		goto error;
	}
	buffer->resource = wl_resource_create(client, &wl_buffer_interface, 1, id);
	if (buffer->resource == NULL) {
		goto error_buffer;
	}
	buffer->pool = pool;
	pool->refs++;
	buffer->mapping = pool->mapping;
	buffer->mapping->refs++;
	buffer->drm_format = drm_format;
	buffer->stride = stride;
	buffer->offset = offset;
	wlr_buffer_init(&buffer->base, &wlr_buffer_impl, width, height);
	buffer->release.notify = handle_buffer_release;
	wl_signal_add(&buffer->base.events.release, &buffer->release);
	wl_resource_set_implementation(buffer->resource, &buffer_impl, buffer,
			handle_buffer_resource_destroy);
	return;

error_buffer:
	free(buffer);
error:
	wl_resource_post_no_memory(pool_resource);
}

static void handle_resize(struct wl_client *client,
		struct wl_resource *pool_resource, int32_t size) {
	struct shm_pool *pool = wl_resource_get_user_data(pool_resource);
	if (size <= 0 || (size_t)size < pool->mapping->size) {
		wl_resource_post_error(pool_resource, WL_SHM_ERROR_INVALID_STRIDE,
				"a pool cannot shrink (%zu to %d bytes)", pool->mapping->size,
				size);
		return;
	}
	if ((size_t)size == pool->mapping->size) {
		return;
	}
	struct shm_mapping *mapping = mapping_create(pool->fd, (size_t)size);
	if (mapping == NULL) {
		wl_resource_post_error(pool_resource, WL_SHM_ERROR_INVALID_FD,
				"cannot mmap %d bytes of the pool", size);
		return;
	}
	/* Buffers made before keep the old one. */
	mapping_unref(pool->mapping);
	pool->mapping = mapping;
}

static const struct wl_shm_pool_interface pool_impl = {
		.create_buffer = handle_create_buffer,
		.destroy = handle_destroy_request,
		.resize = handle_resize,
};

static void handle_pool_resource_destroy(struct wl_resource *resource) {
	struct shm_pool *pool = wl_resource_get_user_data(resource);
	pool->resource = NULL;
	pool_unref(pool);
}

static void handle_create_pool(struct wl_client *client,
		struct wl_resource *shm_resource, uint32_t id, int fd, int32_t size) {
	struct fw_shm *shm = wl_resource_get_user_data(shm_resource);
	if (size <= 0) {
		wl_resource_post_error(shm_resource, WL_SHM_ERROR_INVALID_STRIDE,
				"invalid pool size %d", size);
		goto error_fd;
	}
	struct shm_pool *pool = calloc(1, sizeof(*pool));
	if (pool == NULL) {
		wl_resource_post_no_memory(shm_resource);
		goto error_fd;
	}
	pool->mapping = mapping_create(fd, (size_t)size);
	if (pool->mapping == NULL) {
		wl_resource_post_error(shm_resource, WL_SHM_ERROR_INVALID_FD,
				"cannot mmap %d bytes of the pool", size);
		goto error_pool;
	}
	pool->resource = wl_resource_create(client, &wl_shm_pool_interface,
			wl_resource_get_version(shm_resource), id);
	if (pool->resource == NULL) {
		wl_resource_post_no_memory(shm_resource);
		goto error_mapping;
	}
	pool->shm = shm;
	pool->fd = fd;
	pool->refs = 1;
	wl_resource_set_implementation(
			pool->resource, &pool_impl, pool, handle_pool_resource_destroy);
	return;

error_mapping:
	mapping_unref(pool->mapping);
error_pool:
	free(pool);
error_fd:
	close(fd);
}

static void handle_release(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct wl_shm_interface shm_impl = {
		.create_pool = handle_create_pool,
		.release = handle_release,
};

static void handle_bind(
		struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct fw_shm *shm = data;
	struct wl_resource *resource =
			wl_resource_create(client, &wl_shm_interface, version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &shm_impl, shm, NULL);
	for (size_t i = 0; i < shm->formats_len; i++) {
		wl_shm_send_format(resource, shm->formats[i]);
	}
}

static void handle_display_destroy(struct wl_listener *listener, void *data) {
	struct fw_shm *shm = wl_container_of(listener, shm, display_destroy);
	wl_list_remove(&shm->display_destroy.link);
	wl_global_destroy(shm->global);
	free(shm->formats);
	free(shm);
}

bool fw_shm_create(struct wl_display *display, struct wlr_renderer *renderer) {
	const struct wlr_drm_format_set *set =
			wlr_renderer_get_texture_formats(renderer, WLR_BUFFER_CAP_DATA_PTR);
	if (set == NULL || set->len == 0) {
		wlr_log(WLR_ERROR, "wl_shm: the renderer reads no buffer in memory");
		return false;
	}
	struct fw_shm *shm = calloc(1, sizeof(*shm));
	if (shm == NULL) {
		return false;
	}
	shm->formats = calloc(set->len, sizeof(*shm->formats));
	if (shm->formats == NULL) {
		goto error_shm;
	}
	for (size_t i = 0; i < set->len; i++) {
		uint32_t drm_format = set->formats[i].format;
		if (bytes_per_pixel(drm_format) > 0) {
			shm->formats[shm->formats_len++] = shm_code_from_drm(drm_format);
		}
	}
	/* Every client may count on these two (wayland.xml). */
	if (!shm_offers(shm, WL_SHM_FORMAT_ARGB8888) ||
			!shm_offers(shm, WL_SHM_FORMAT_XRGB8888)) {
		wlr_log(WLR_ERROR, "wl_shm: the renderer lacks ARGB8888 or XRGB8888");
		goto error_formats;
	}
	if (!install_sigbus_handler()) {
		goto error_formats;
	}
	shm->global = wl_global_create(
			display, &wl_shm_interface, SHM_VERSION, shm, handle_bind);
	if (shm->global == NULL) {
		goto error_formats;
	}
	static bool registered;
	if (!registered) {
		wlr_buffer_register_resource_interface(&buffer_resource_interface);
		registered = true;
	}
	shm->display_destroy.notify = handle_display_destroy;
	wl_display_add_destroy_listener(display, &shm->display_destroy);
	return true;

error_formats:
	free(shm->formats);
error_shm:
	free(shm);
	wlr_log(WLR_ERROR, "wl_shm: cannot make the global");
	return false;
}
