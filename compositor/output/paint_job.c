#include "compositor/output/paint_job.h"
#include "compositor/output/shm_guard.h"
#include <drm_fourcc.h>
#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>

void fw_paint_job_init(struct fw_paint_job *job) {
	*job = (struct fw_paint_job){0};
	wl_array_init(&job->ops);
	wl_array_init(&job->sources);
	wl_list_init(&job->clients);
	wl_list_init(&job->link);
}

static void client_free(struct fw_paint_client *owner) {
	wl_list_remove(&owner->destroy.link);
	wl_list_remove(&owner->link);
	free(owner);
}

void fw_paint_job_finish(struct fw_paint_job *job) {
	struct fw_paint_op *op;
	wl_array_for_each(op, &job->ops) {
		pixman_region32_fini(&op->region);
	}
	wl_array_release(&job->ops);
	struct fw_paint_source **source;
	wl_array_for_each(source, &job->sources) {
		if ((*source)->faulted && (*source)->owner != NULL) {
			(*source)->owner->faulted = true;
		}
		pixman_image_unref((*source)->image);
		wlr_buffer_unlock((*source)->buffer);
		free(*source);
	}
	wl_array_release(&job->sources);
	struct fw_paint_client *owner, *tmp;
	wl_list_for_each_safe(owner, tmp, &job->clients, link) {
		if (owner->faulted && owner->client != NULL) {
			/* What libwayland's own shm guard told such a client. */
			wl_client_post_implementation_error(
					owner->client, "error accessing SHM buffer");
		}
		client_free(owner);
	}
	if (job->target != NULL) {
		pixman_image_unref(job->target);
		job->target = NULL;
	}
}

static struct fw_paint_op *add_op(struct fw_paint_job *job,
		enum fw_paint_op_type type, pixman_region32_t *region) {
	struct fw_paint_op *op = wl_array_add(&job->ops, sizeof(*op));
	if (op == NULL) {
		job->failed = true;
		return NULL;
	}
	*op = (struct fw_paint_op){.type = type};
	pixman_region32_init(&op->region);
	pixman_region32_copy(&op->region, region);
	int n;
	pixman_box32_t *rects = pixman_region32_rectangles(region, &n);
	for (int i = 0; i < n; i++) {
		job->pixels += (uint64_t)(rects[i].x2 - rects[i].x1) *
				(uint64_t)(rects[i].y2 - rects[i].y1);
	}
	return op;
}

void fw_paint_job_fill(struct fw_paint_job *job, pixman_region32_t *region,
		const float color[static 4]) {
	struct fw_paint_op *op = add_op(job, FW_PAINT_FILL, region);
	if (op == NULL) {
		return;
	}
	/* pixman colours are premultiplied, as wlroots' are. */
	op->color = (pixman_color_t){
			.red = (uint16_t)(color[0] * 0xffff),
			.green = (uint16_t)(color[1] * 0xffff),
			.blue = (uint16_t)(color[2] * 0xffff),
			.alpha = (uint16_t)(color[3] * 0xffff),
	};
	op->op = color[3] >= 1.0f ? PIXMAN_OP_SRC : PIXMAN_OP_OVER;
}

void fw_paint_job_composite(struct fw_paint_job *job, pixman_region32_t *region,
		size_t source, int x, int y, bool opaque) {
	struct fw_paint_op *op = add_op(job, FW_PAINT_COMPOSITE, region);
	if (op == NULL) {
		return;
	}
	op->source = source;
	op->x = x;
	op->y = y;
	op->op = opaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER;
}

void fw_paint_job_node(struct fw_paint_job *job, pixman_region32_t *region,
		struct wlr_scene_node *node, int x, int y, int width, int height,
		bool opaque) {
	struct fw_paint_op *op = add_op(job, FW_PAINT_NODE, region);
	if (op != NULL) {
		op->node = node;
		op->x = x;
		op->y = y;
		op->width = width;
		op->height = height;
		op->op = opaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER;
		job->has_nodes = true;
	}
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_paint_client *owner = wl_container_of(listener, owner, destroy);
	owner->client = NULL;
	wl_list_remove(&owner->destroy.link);
	wl_list_init(&owner->destroy.link);
}

static struct fw_paint_client *owner_get(
		struct fw_paint_job *job, struct wl_client *client) {
	struct fw_paint_client *owner;
	wl_list_for_each(owner, &job->clients, link) {
		if (owner->client == client) {
			return owner;
		}
	}
	owner = calloc(1, sizeof(*owner));
	if (owner == NULL) {
		return NULL;
	}
	owner->client = client;
	owner->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(client, &owner->destroy);
	wl_list_insert(&job->clients, &owner->link);
	return owner;
}

pixman_format_code_t fw_paint_job_format(uint32_t drm_format) {
	switch (drm_format) {
	case DRM_FORMAT_ARGB8888:
		return PIXMAN_a8r8g8b8;
	case DRM_FORMAT_XRGB8888:
		return PIXMAN_x8r8g8b8;
	default:
		return 0;
	}
}

long fw_paint_job_add_source(struct fw_paint_job *job,
		struct wlr_buffer *buffer, struct wl_client *client) {
	void *data;
	uint32_t drm_format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(buffer,
				WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &drm_format, &stride)) {
		return -1;
	}
	wlr_buffer_end_data_ptr_access(buffer);
	pixman_format_code_t format = fw_paint_job_format(drm_format);
	if (format == 0) {
		return -1;
	}
	struct fw_paint_source *source = calloc(1, sizeof(*source));
	struct fw_paint_source **slot =
			source != NULL ? wl_array_add(&job->sources, sizeof(*slot)) : NULL;
	if (slot == NULL) {
		goto error_source;
	}
	source->image = pixman_image_create_bits_no_clear(
			format, buffer->width, buffer->height, data, (int)stride);
	if (source->image == NULL) {
		goto error_slot;
	}
	if (client != NULL) {
		source->owner = owner_get(job, client);
		if (source->owner == NULL) {
			pixman_image_unref(source->image);
			goto error_slot;
		}
	}
	source->buffer = wlr_buffer_lock(buffer);
	source->start = data;
	source->size = stride * (size_t)buffer->height;
	*slot = source;
	return (long)(job->sources.size / sizeof(*slot)) - 1;

error_slot:
	job->sources.size -= sizeof(*slot);
error_source:
	free(source);
	job->failed = true;
	return -1;
}

static struct fw_paint_source *source_at(
		struct fw_paint_job *job, size_t index) {
	return ((struct fw_paint_source **)job->sources.data)[index];
}

static void run_op(struct fw_paint_job *job, struct fw_paint_op *op) {
	int n;
	pixman_box32_t *rects = pixman_region32_rectangles(&op->region, &n);
	if (op->type == FW_PAINT_FILL) {
		pixman_image_fill_boxes(op->op, job->target, &op->color, n, rects);
		return;
	}
	pixman_image_t *image = source_at(job, op->source)->image;
	for (int i = 0; i < n; i++) {
		pixman_image_composite32(op->op, image, NULL, job->target,
				rects[i].x1 - op->x, rects[i].y1 - op->y, 0, 0, rects[i].x1,
				rects[i].y1, rects[i].x2 - rects[i].x1,
				rects[i].y2 - rects[i].y1);
	}
}

void fw_paint_job_run_main(struct fw_paint_job *job,
		void (*draw_node)(void *data, struct fw_paint_op *op), void *data) {
	fw_shm_guard_enter(job->sources.data,
			job->sources.size / sizeof(struct fw_paint_source *));
	struct fw_paint_op *op;
	wl_array_for_each(op, &job->ops) {
		if (!pixman_region32_not_empty(&op->region)) {
			continue;
		}
		if (op->type == FW_PAINT_NODE) {
			draw_node(data, op);
		} else {
			run_op(job, op);
		}
	}
	fw_shm_guard_leave();
}

void fw_paint_job_run_worker(struct fw_paint_job *job) {
	fw_shm_guard_enter(job->sources.data,
			job->sources.size / sizeof(struct fw_paint_source *));
	struct fw_paint_op *op;
	wl_array_for_each(op, &job->ops) {
		if (op->type != FW_PAINT_NODE &&
				pixman_region32_not_empty(&op->region)) {
			run_op(job, op);
		}
	}
	fw_shm_guard_leave();
}
