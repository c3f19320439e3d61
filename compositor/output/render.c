/*
 * Paints the scene onto an output with pixman itself when the output's
 * renderer is wlroots' pixman renderer.
 *
 * wlr_scene 0.15 draws every node whole, bottom to top, hidden or not, and
 * the 0.15 pixman renderer draws every texture through a projective
 * transform and a solid alpha mask, pixman's slowest path. Every client
 * waits behind a frame, as a frame is work that cannot be interleaved with
 * the gate, so a slow frame is everyone's latency (bench/README.md).
 *
 * So this pass paints each pixel once: a node is clipped to the damage
 * minus everything opaque above it, and a plain surface buffer is copied
 * (opaque) or blended (translucent) with no transform and no mask. What it
 * does not know how to draw exactly (a scaled, rotated or cropped surface)
 * still goes through the renderer, clipped the same way. Any other output
 * setup, or any other renderer, uses wlr_scene_output_commit as it is.
 */
#include "compositor/output/render.h"
#include <drm_fourcc.h>
#include <pixman.h>
#include <stdlib.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_matrix.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_damage.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/util/log.h>

struct paint {
	struct wlr_scene_node *node;
	struct wlr_box box; /* output coordinates */
	pixman_region32_t visible;
};

struct frame {
	struct wlr_output *output;
	struct wlr_renderer *renderer;
	pixman_image_t *target;
	pixman_region32_t *damage;
	struct wl_array paints; /* struct paint, bottom to top */
};

/*
 * The pixman format of a buffer node this pass can copy one to one: a
 * buffer fairway drew itself (a window title), in memory, unscaled and
 * untransformed. 0 for any other: wlr_scene keeps a buffer node's texture
 * private, so those are left to its own pass.
 */
static pixman_format_code_t plain_buffer_format(
		struct wlr_scene_buffer *scene_buffer) {
	struct wlr_buffer *buffer = scene_buffer->buffer;
	if (buffer == NULL ||
			scene_buffer->transform != WL_OUTPUT_TRANSFORM_NORMAL ||
			!wlr_fbox_empty(&scene_buffer->src_box) ||
			(scene_buffer->dst_width != 0 &&
					scene_buffer->dst_width != buffer->width) ||
			(scene_buffer->dst_height != 0 &&
					scene_buffer->dst_height != buffer->height)) {
		return 0;
	}
	void *data;
	uint32_t format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(buffer,
				WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return 0;
	}
	wlr_buffer_end_data_ptr_access(buffer);
	switch (format) {
	case DRM_FORMAT_ARGB8888:
		return PIXMAN_a8r8g8b8;
	case DRM_FORMAT_XRGB8888:
		return PIXMAN_x8r8g8b8;
	default:
		return 0;
	}
}

/*
 * Collects the enabled nodes that can show on the output, in paint order.
 * False for a node this pass cannot paint.
 */
static bool collect(
		struct frame *frame, struct wlr_scene_node *node, int x, int y) {
	if (!node->state.enabled) {
		return true;
	}
	x += node->state.x;
	y += node->state.y;

	struct wlr_box box = {.x = x, .y = y};
	switch (node->type) {
	case WLR_SCENE_NODE_ROOT:
	case WLR_SCENE_NODE_TREE:;
		struct wlr_scene_node *child;
		wl_list_for_each(child, &node->state.children, state.link) {
			if (!collect(frame, child, x, y)) {
				return false;
			}
		}
		return true;
	case WLR_SCENE_NODE_SURFACE:;
		struct wlr_surface *surface =
				wlr_scene_surface_from_node(node)->surface;
		if (wlr_surface_get_texture(surface) == NULL) {
			return true;
		}
		box.width = surface->current.width;
		box.height = surface->current.height;
		break;
	case WLR_SCENE_NODE_RECT:;
		struct wlr_scene_rect *rect = (struct wlr_scene_rect *)node;
		box.width = rect->width;
		box.height = rect->height;
		break;
	case WLR_SCENE_NODE_BUFFER:;
		struct wlr_scene_buffer *scene_buffer = (struct wlr_scene_buffer *)node;
		if (plain_buffer_format(scene_buffer) == 0) {
			return false;
		}
		box.width = scene_buffer->buffer->width;
		box.height = scene_buffer->buffer->height;
		break;
	}

	pixman_region32_t visible;
	pixman_region32_init_rect(&visible, box.x, box.y, box.width, box.height);
	pixman_region32_intersect(&visible, &visible, frame->damage);
	if (!pixman_region32_not_empty(&visible)) {
		pixman_region32_fini(&visible);
		return true;
	}
	struct paint *paint = wl_array_add(&frame->paints, sizeof(*paint));
	if (paint == NULL) {
		pixman_region32_fini(&visible);
		return false;
	}
	*paint = (struct paint){.node = node, .box = box, .visible = visible};
	return true;
}

/* Adds to covered what the paint hides of everything below it. */
static void add_opaque(struct paint *paint, pixman_region32_t *covered) {
	if (paint->node->type == WLR_SCENE_NODE_RECT) {
		struct wlr_scene_rect *rect = (struct wlr_scene_rect *)paint->node;
		if (rect->color[3] >= 1.0f) {
			pixman_region32_union(covered, covered, &paint->visible);
		}
		return;
	}
	if (paint->node->type == WLR_SCENE_NODE_BUFFER) {
		if (plain_buffer_format((struct wlr_scene_buffer *)paint->node) ==
				PIXMAN_x8r8g8b8) {
			pixman_region32_union(covered, covered, &paint->visible);
		}
		return;
	}
	struct wlr_surface *surface =
			wlr_scene_surface_from_node(paint->node)->surface;
	pixman_region32_t opaque;
	pixman_region32_init(&opaque);
	pixman_region32_copy(&opaque, &surface->opaque_region);
	pixman_region32_translate(&opaque, paint->box.x, paint->box.y);
	pixman_region32_intersect(&opaque, &opaque, &paint->visible);
	pixman_region32_union(covered, covered, &opaque);
	pixman_region32_fini(&opaque);
}

static void fill(struct frame *frame, pixman_region32_t *region,
		const float color[static 4]) {
	/* pixman colours are premultiplied, as wlroots' are. */
	pixman_color_t colour = {
			.red = (uint16_t)(color[0] * 0xffff),
			.green = (uint16_t)(color[1] * 0xffff),
			.blue = (uint16_t)(color[2] * 0xffff),
			.alpha = (uint16_t)(color[3] * 0xffff),
	};
	int n;
	pixman_box32_t *boxes = pixman_region32_rectangles(region, &n);
	pixman_image_fill_boxes(color[3] >= 1.0f ? PIXMAN_OP_SRC : PIXMAN_OP_OVER,
			frame->target, &colour, n, boxes);
}

/* A surface whose buffer maps one to one onto its box. */
static bool is_plain(struct wlr_surface *surface, struct wlr_texture *texture) {
	return surface->current.transform == WL_OUTPUT_TRANSFORM_NORMAL &&
			!surface->current.viewport.has_src &&
			(int)texture->width == surface->current.width &&
			(int)texture->height == surface->current.height &&
			wlr_texture_is_pixman(texture) && surface->buffer != NULL &&
			surface->buffer->source != NULL;
}

/* Copies the visible part of data, in format, at the paint's box. */
static bool composite_visible(struct frame *frame, struct paint *paint,
		pixman_format_code_t format, int width, int height, void *data,
		size_t stride, bool opaque) {
	pixman_image_t *source = pixman_image_create_bits_no_clear(
			format, width, height, data, (int)stride);
	if (source == NULL) {
		return false;
	}
	pixman_op_t op = opaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER;
	int n;
	pixman_box32_t *rects = pixman_region32_rectangles(&paint->visible, &n);
	for (int i = 0; i < n; i++) {
		pixman_image_composite32(op, source, NULL, frame->target,
				rects[i].x1 - paint->box.x, rects[i].y1 - paint->box.y, 0, 0,
				rects[i].x1, rects[i].y1, rects[i].x2 - rects[i].x1,
				rects[i].y2 - rects[i].y1);
	}
	pixman_image_unref(source);
	return true;
}

static void paint_buffer(struct frame *frame, struct paint *paint) {
	struct wlr_scene_buffer *scene_buffer =
			(struct wlr_scene_buffer *)paint->node;
	pixman_format_code_t format = plain_buffer_format(scene_buffer);
	struct wlr_buffer *buffer = scene_buffer->buffer;
	void *data;
	uint32_t drm_format;
	size_t stride;
	if (format == 0 ||
			!wlr_buffer_begin_data_ptr_access(buffer,
					WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &drm_format,
					&stride)) {
		return;
	}
	composite_visible(frame, paint, format, buffer->width, buffer->height, data,
			stride, format == PIXMAN_x8r8g8b8);
	wlr_buffer_end_data_ptr_access(buffer);
}

static bool copy_plain(struct frame *frame, struct paint *paint,
		struct wlr_surface *surface, struct wlr_texture *texture) {
	/*
	 * The data pointer is asked for at every frame, not kept: a client's
	 * pool can be remapped, and a shm buffer's access is what guards
	 * fairway against a client that truncates its pool under it.
	 */
	struct wlr_buffer *buffer = surface->buffer->source;
	void *data;
	uint32_t format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(buffer,
				WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return false;
	}
	bool ok = composite_visible(frame, paint,
			pixman_image_get_format(wlr_pixman_texture_get_image(texture)),
			buffer->width, buffer->height, data, stride,
			wlr_texture_is_opaque(texture));
	wlr_buffer_end_data_ptr_access(buffer);
	return ok;
}

/* What wlr_scene itself would do, clipped to what shows. */
static void render_transformed(struct frame *frame, struct paint *paint,
		struct wlr_surface *surface, struct wlr_texture *texture) {
	float matrix[9];
	wlr_matrix_project_box(matrix, &paint->box,
			wlr_output_transform_invert(surface->current.transform), 0,
			frame->output->transform_matrix);
	struct wlr_fbox source_box;
	wlr_surface_get_buffer_source_box(surface, &source_box);
	int n;
	pixman_box32_t *rects = pixman_region32_rectangles(&paint->visible, &n);
	for (int i = 0; i < n; i++) {
		struct wlr_box scissor = {
				.x = rects[i].x1,
				.y = rects[i].y1,
				.width = rects[i].x2 - rects[i].x1,
				.height = rects[i].y2 - rects[i].y1,
		};
		wlr_renderer_scissor(frame->renderer, &scissor);
		wlr_render_subtexture_with_matrix(
				frame->renderer, texture, &source_box, matrix, 1.0f);
	}
	/* Direct copies assume an unclipped target. */
	wlr_renderer_scissor(frame->renderer, NULL);
}

static void paint_node(struct frame *frame, struct paint *paint) {
	if (paint->node->type == WLR_SCENE_NODE_RECT) {
		fill(frame, &paint->visible,
				((struct wlr_scene_rect *)paint->node)->color);
		return;
	}
	if (paint->node->type == WLR_SCENE_NODE_BUFFER) {
		paint_buffer(frame, paint);
		return;
	}
	struct wlr_surface *surface =
			wlr_scene_surface_from_node(paint->node)->surface;
	struct wlr_texture *texture = wlr_surface_get_texture(surface);
	if (!is_plain(surface, texture) ||
			!copy_plain(frame, paint, surface, texture)) {
		render_transformed(frame, paint, surface, texture);
	}
}

static void paint_frame(struct frame *frame) {
	size_t count = frame->paints.size / sizeof(struct paint);
	struct paint *paints = frame->paints.data;

	/* Top down: each node loses what the nodes above it hide. */
	pixman_region32_t covered;
	pixman_region32_init(&covered);
	for (size_t i = count; i-- > 0;) {
		pixman_region32_subtract(
				&paints[i].visible, &paints[i].visible, &covered);
		add_opaque(&paints[i], &covered);
	}

	pixman_region32_t background;
	pixman_region32_init(&background);
	pixman_region32_subtract(&background, frame->damage, &covered);
	fill(frame, &background, (float[4]){0.0f, 0.0f, 0.0f, 1.0f});
	pixman_region32_fini(&background);
	pixman_region32_fini(&covered);

	for (size_t i = 0; i < count; i++) {
		if (pixman_region32_not_empty(&paints[i].visible)) {
			paint_node(frame, &paints[i]);
		}
	}
}

static void finish_paints(struct wl_array *paints) {
	struct paint *paint;
	wl_array_for_each(paint, paints) {
		pixman_region32_fini(&paint->visible);
	}
	wl_array_release(paints);
}

/* True where this pass draws exactly what wlr_scene would. */
static bool can_paint(struct wlr_scene_output *scene_output) {
	struct wlr_output *output = scene_output->output;
	return output->renderer != NULL &&
			wlr_renderer_is_pixman(output->renderer) && output->scale == 1.0f &&
			output->transform == WL_OUTPUT_TRANSFORM_NORMAL;
}

bool fw_render_output(struct wlr_scene_output *scene_output) {
	if (!can_paint(scene_output)) {
		return wlr_scene_output_commit(scene_output);
	}
	struct wlr_output *output = scene_output->output;
	struct frame frame = {
			.output = output,
			.renderer = output->renderer,
	};
	wl_array_init(&frame.paints);
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	frame.damage = &damage;

	bool needs_frame;
	if (!wlr_output_damage_attach_render(
				scene_output->damage, &needs_frame, &damage)) {
		pixman_region32_fini(&damage);
		return false;
	}
	if (!needs_frame) {
		pixman_region32_fini(&damage);
		wlr_output_rollback(output);
		return true;
	}
	if (!collect(&frame, &scene_output->scene->node, -scene_output->x,
				-scene_output->y)) {
		finish_paints(&frame.paints);
		pixman_region32_fini(&damage);
		wlr_output_rollback(output);
		/* The damage stays pending, so the scene's own pass redraws it. */
		return wlr_scene_output_commit(scene_output);
	}

	wlr_renderer_begin(frame.renderer, output->width, output->height);
	wlr_renderer_scissor(frame.renderer, NULL);
	frame.target = wlr_pixman_renderer_get_current_image(frame.renderer);
	paint_frame(&frame);
	wlr_output_render_software_cursors(output, &damage);
	wlr_renderer_end(frame.renderer);

	finish_paints(&frame.paints);
	pixman_region32_fini(&damage);
	/* Normal transform and scale 1: the damage needs no transforming. */
	wlr_output_set_damage(output, &scene_output->damage->current);
	return wlr_output_commit(output);
}
