#include "compositor/shell/cairo_buffer.h"
#include <drm_fourcc.h>
#include <stdlib.h>
#include <wlr/interfaces/wlr_buffer.h>

struct fw_cairo_buffer {
	struct wlr_buffer base;
	cairo_surface_t *surface;
};

static struct fw_cairo_buffer *cairo_buffer(struct wlr_buffer *buffer) {
	return wl_container_of(buffer, (struct fw_cairo_buffer *)NULL, base);
}

static void buffer_destroy(struct wlr_buffer *wlr_buffer) {
	struct fw_cairo_buffer *buffer = cairo_buffer(wlr_buffer);
	cairo_surface_destroy(buffer->surface);
	free(buffer);
}

static bool buffer_begin_data_ptr_access(struct wlr_buffer *wlr_buffer,
		uint32_t flags, void **data, uint32_t *format, size_t *stride) {
	struct fw_cairo_buffer *buffer = cairo_buffer(wlr_buffer);
	if (flags & WLR_BUFFER_DATA_PTR_ACCESS_WRITE) {
		/* What the scene shows does not change under it. */
		return false;
	}
	*data = cairo_image_surface_get_data(buffer->surface);
	/* CAIRO_FORMAT_ARGB32 is premultiplied 32-bit native-endian ARGB. */
	*format = DRM_FORMAT_ARGB8888;
	*stride = (size_t)cairo_image_surface_get_stride(buffer->surface);
	return *data != NULL;
}

static void buffer_end_data_ptr_access(struct wlr_buffer *wlr_buffer) {
	/* The pixels stay where they are: nothing to release. */
}

static const struct wlr_buffer_impl buffer_impl = {
		.destroy = buffer_destroy,
		.begin_data_ptr_access = buffer_begin_data_ptr_access,
		.end_data_ptr_access = buffer_end_data_ptr_access,
};

struct wlr_buffer *fw_cairo_buffer_create(cairo_surface_t *surface) {
	if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS ||
			cairo_image_surface_get_format(surface) != CAIRO_FORMAT_ARGB32) {
		return NULL;
	}
	struct fw_cairo_buffer *buffer = calloc(1, sizeof(*buffer));
	if (buffer == NULL) {
		return NULL;
	}
	cairo_surface_flush(surface);
	buffer->surface = cairo_surface_reference(surface);
	wlr_buffer_init(&buffer->base, &buffer_impl,
			cairo_image_surface_get_width(surface),
			cairo_image_surface_get_height(surface));
	return &buffer->base;
}
