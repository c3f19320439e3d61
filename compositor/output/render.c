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
 *
 * The pixel work is a paint job (paint_job.h). With a paint worker, a frame
 * that needs nothing of the renderer is painted on it, while the main thread
 * serves clients: the main thread takes the frame's buffer and gives the
 * output its pending state back (screencopy and output configuration may
 * use it meanwhile), and once the worker is done it attaches the buffer
 * again, draws the software cursors and commits. Damage that comes during
 * the paint is kept for the next frame; a frame whose output changed, or
 * that the session lock discarded, is never shown.
 */
#include "compositor/output/render.h"
#include "compositor/output/paint_job.h"
#include "compositor/output/paint_worker.h"
#include "compositor/output/shm_guard.h"
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
	pixman_region32_t *damage;
	struct wl_array paints; /* struct paint, bottom to top */
};

/* A frame the paint worker paints. */
struct inflight {
	struct fw_render_output *render;
	struct fw_paint_job job; /* its target: an image over buffer's data */
	struct wlr_buffer *buffer; /* the swapchain buffer, locked */
	/* The output as it was: a frame for another is dropped. */
	struct wlr_swapchain *swapchain;
	int width, height;
	struct wlr_output_damage *damage; /* NULL once destroyed */
	/* The frame's own damage, taken out of damage->current. */
	pixman_region32_t current;
	bool discarded;
	struct wl_listener damage_destroy;
};

struct fw_render_output {
	struct wlr_output *output;
	struct fw_paint_worker *worker; /* NULL: paint on the main thread */
	void (*painted)(void *data, enum fw_render_result result);
	void *data;
	struct inflight *inflight; /* NULL while the worker paints nothing */
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

/* A surface whose buffer maps one to one onto its box. */
static bool is_plain(struct wlr_surface *surface, struct wlr_texture *texture) {
	return surface->current.transform == WL_OUTPUT_TRANSFORM_NORMAL &&
			!surface->current.viewport.has_src &&
			(int)texture->width == surface->current.width &&
			(int)texture->height == surface->current.height &&
			wlr_texture_is_pixman(texture) && surface->buffer != NULL &&
			surface->buffer->source != NULL;
}

/*
 * The data pointer is taken at every frame, not kept: a client's pool can
 * be remapped. The buffer stays locked while the job lives.
 */
static void add_surface(struct fw_paint_job *job, struct paint *paint) {
	struct wlr_surface *surface =
			wlr_scene_surface_from_node(paint->node)->surface;
	struct wlr_texture *texture = wlr_surface_get_texture(surface);
	long source = is_plain(surface, texture)
			? fw_paint_job_add_source(job, surface->buffer->source,
					  pixman_image_get_format(
							  wlr_pixman_texture_get_image(texture)),
					  wl_resource_get_client(surface->resource))
			: -1;
	if (source < 0) {
		fw_paint_job_node(
				job, &paint->visible, paint->node, paint->box.x, paint->box.y);
		return;
	}
	fw_paint_job_composite(job, &paint->visible, (size_t)source, paint->box.x,
			paint->box.y, wlr_texture_is_opaque(texture));
}

static void add_node(struct fw_paint_job *job, struct paint *paint) {
	switch (paint->node->type) {
	case WLR_SCENE_NODE_RECT:
		fw_paint_job_fill(job, &paint->visible,
				((struct wlr_scene_rect *)paint->node)->color);
		return;
	case WLR_SCENE_NODE_BUFFER:;
		struct wlr_scene_buffer *scene_buffer =
				(struct wlr_scene_buffer *)paint->node;
		pixman_format_code_t format = plain_buffer_format(scene_buffer);
		long source = format != 0 ? fw_paint_job_add_source(job,
											scene_buffer->buffer, format, NULL)
								  : -1;
		if (source >= 0) {
			fw_paint_job_composite(job, &paint->visible, (size_t)source,
					paint->box.x, paint->box.y, format == PIXMAN_x8r8g8b8);
		}
		return;
	case WLR_SCENE_NODE_SURFACE:
		add_surface(job, paint);
		return;
	default:
		return;
	}
}

/* The frame's pixel work, each damaged pixel once. */
static void build_job(struct frame *frame, struct fw_paint_job *job) {
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
	fw_paint_job_fill(job, &background, (float[4]){0.0f, 0.0f, 0.0f, 1.0f});
	pixman_region32_fini(&background);
	pixman_region32_fini(&covered);

	for (size_t i = 0; i < count; i++) {
		if (pixman_region32_not_empty(&paints[i].visible)) {
			add_node(job, &paints[i]);
		}
	}
}

/* What wlr_scene itself would do, clipped to what shows. */
static void render_transformed(void *data, struct fw_paint_op *op) {
	struct frame *frame = data;
	struct wlr_surface *surface =
			wlr_scene_surface_from_node(op->node)->surface;
	struct wlr_texture *texture = wlr_surface_get_texture(surface);
	struct wlr_box box = {
			.x = op->x,
			.y = op->y,
			.width = surface->current.width,
			.height = surface->current.height,
	};
	float matrix[9];
	wlr_matrix_project_box(matrix, &box,
			wlr_output_transform_invert(surface->current.transform), 0,
			frame->output->transform_matrix);
	struct wlr_fbox source_box;
	wlr_surface_get_buffer_source_box(surface, &source_box);
	int n;
	pixman_box32_t *rects = pixman_region32_rectangles(&op->region, &n);
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

/* On the main thread, into the renderer's bound buffer, and commits. */
static bool paint_here(struct frame *frame, struct fw_paint_job *job,
		struct wlr_scene_output *scene_output) {
	struct wlr_output *output = frame->output;
	wlr_renderer_begin(frame->renderer, output->width, output->height);
	wlr_renderer_scissor(frame->renderer, NULL);
	job->target = pixman_image_ref(
			wlr_pixman_renderer_get_current_image(frame->renderer));
	fw_paint_job_run_main(job, render_transformed, frame);
	wlr_output_render_software_cursors(output, frame->damage);
	wlr_renderer_end(frame->renderer);
	/* Normal transform and scale 1: the damage needs no transforming. */
	wlr_output_set_damage(output, &scene_output->damage->current);
	return wlr_output_commit(output);
}

static pixman_format_code_t target_format(uint32_t drm_format) {
	switch (drm_format) {
	case DRM_FORMAT_XRGB8888:
		return PIXMAN_x8r8g8b8;
	case DRM_FORMAT_ARGB8888:
		return PIXMAN_a8r8g8b8;
	default:
		return 0;
	}
}

static void inflight_free(struct inflight *f) {
	fw_paint_job_finish(&f->job);
	if (f->buffer != NULL) {
		wlr_buffer_unlock(f->buffer);
	}
	pixman_region32_fini(&f->current);
	wl_list_remove(&f->damage_destroy.link);
	free(f);
}

/* Copies what the buffer now attached lacks from the one painted. */
static void copy_frame(struct wlr_output *output, pixman_image_t *painted,
		pixman_region32_t *damage) {
	pixman_image_t *target =
			wlr_pixman_renderer_get_current_image(output->renderer);
	int n;
	pixman_box32_t *rects = pixman_region32_rectangles(damage, &n);
	for (int i = 0; i < n; i++) {
		pixman_image_composite32(PIXMAN_OP_SRC, painted, NULL, target,
				rects[i].x1, rects[i].y1, 0, 0, rects[i].x1, rects[i].y1,
				rects[i].x2 - rects[i].x1, rects[i].y2 - rects[i].y1);
	}
}

/* The worker painted the frame: show it, if it is still the output's. */
static bool commit_painted(struct inflight *f) {
	struct wlr_output *output = f->render->output;
	struct wlr_output_damage *damage = f->damage;
	if (f->discarded || damage == NULL || !output->enabled ||
			output->swapchain != f->swapchain || output->width != f->width ||
			output->height != f->height) {
		if (damage != NULL) {
			pixman_region32_union(
					&damage->current, &damage->current, &f->current);
			wlr_output_damage_add_whole(damage);
		}
		return false;
	}
	/* What came during the paint waits for the next frame. */
	pixman_region32_t later;
	pixman_region32_init(&later);
	pixman_region32_copy(&later, &damage->current);
	pixman_region32_copy(&damage->current, &f->current);
	/*
	 * Given back, the buffer is the swapchain's first free one again, and
	 * attaching takes it, with the age it had; another (a page flip freed
	 * one meanwhile) is given what it lacks from it.
	 */
	struct wlr_buffer *painted = f->buffer;
	wlr_buffer_unlock(painted);
	f->buffer = NULL;
	bool needs_frame, ok = false;
	pixman_region32_t age_damage;
	pixman_region32_init(&age_damage);
	if (wlr_output_damage_attach_render(damage, &needs_frame, &age_damage)) {
		wlr_renderer_begin(output->renderer, output->width, output->height);
		if (output->back_buffer != painted) {
			copy_frame(output, f->job.target, &age_damage);
		}
		wlr_output_render_software_cursors(output, &age_damage);
		wlr_renderer_end(output->renderer);
		wlr_output_set_damage(output, &damage->current);
		ok = wlr_output_commit(output);
	}
	pixman_region32_union(&damage->current, &damage->current, &later);
	pixman_region32_fini(&later);
	pixman_region32_fini(&age_damage);
	return ok;
}

static void handle_painted(struct fw_paint_job *job) {
	struct inflight *f = wl_container_of(job, f, job);
	struct fw_render_output *render = f->render;
	render->inflight = NULL;
	render->output->frame_pending = false;
	bool committed = commit_painted(f);
	bool discarded = f->discarded;
	inflight_free(f);
	if (render->painted == NULL) {
		/* Its output is going. */
		return;
	}
	if (!committed) {
		wlr_output_schedule_frame(render->output);
	}
	render->painted(render->data,
			committed           ? FW_RENDER_COMMITTED
					: discarded ? FW_RENDER_DISCARDED
								: FW_RENDER_IDLE);
}

static void handle_damage_destroy(struct wl_listener *listener, void *data) {
	struct inflight *f = wl_container_of(listener, f, damage_destroy);
	f->damage = NULL;
	wl_list_remove(&f->damage_destroy.link);
	wl_list_init(&f->damage_destroy.link);
}

/*
 * Hands the job to the worker, with the output's pending state given back:
 * nothing of it waits half painted for someone else's commit. False if the
 * frame's buffer cannot be painted by pixman alone.
 */
static bool paint_there(struct fw_render_output *render, struct inflight *f,
		struct wlr_scene_output *scene_output) {
	struct wlr_output *output = render->output;
	struct wlr_buffer *buffer = output->back_buffer;
	void *data;
	uint32_t drm_format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(buffer,
				WLR_BUFFER_DATA_PTR_ACCESS_READ |
						WLR_BUFFER_DATA_PTR_ACCESS_WRITE,
				&data, &drm_format, &stride)) {
		return false;
	}
	wlr_buffer_end_data_ptr_access(buffer);
	pixman_format_code_t format = target_format(drm_format);
	if (format == 0 || !fw_shm_guard_arm()) {
		return false;
	}
	f->job.target = pixman_image_create_bits_no_clear(
			format, buffer->width, buffer->height, data, (int)stride);
	if (f->job.target == NULL) {
		return false;
	}
	f->job.painted = handle_painted;
	f->buffer = wlr_buffer_lock(buffer);
	f->swapchain = output->swapchain;
	f->width = output->width;
	f->height = output->height;
	f->damage = scene_output->damage;
	wl_signal_add(&f->damage->events.destroy, &f->damage_destroy);
	pixman_region32_copy(&f->current, &f->damage->current);
	pixman_region32_clear(&f->damage->current);
	wlr_output_rollback(output);
	/* No frame event between now and the commit: it would be taken for a
	 * tick, and its frame could not be painted anyway. */
	output->frame_pending = true;
	render->inflight = f;
	fw_paint_worker_submit(render->worker, &f->job);
	return true;
}

static struct inflight *inflight_create(struct fw_render_output *render) {
	struct inflight *f = calloc(1, sizeof(*f));
	if (f == NULL) {
		return NULL;
	}
	f->render = render;
	fw_paint_job_init(&f->job);
	pixman_region32_init(&f->current);
	f->damage_destroy.notify = handle_damage_destroy;
	wl_list_init(&f->damage_destroy.link);
	return f;
}

struct fw_render_output *fw_render_output_create(struct wlr_output *output,
		struct fw_paint_worker *worker,
		void (*painted)(void *data, enum fw_render_result result), void *data) {
	struct fw_render_output *render = calloc(1, sizeof(*render));
	if (render == NULL) {
		return NULL;
	}
	render->output = output;
	render->worker = worker;
	render->painted = painted;
	render->data = data;
	return render;
}

void fw_render_output_destroy(struct fw_render_output *render) {
	if (render == NULL) {
		return;
	}
	if (render->inflight != NULL) {
		render->inflight->discarded = true;
		render->painted = NULL;
		fw_paint_worker_finish(render->worker, &render->inflight->job);
	}
	free(render);
}

bool fw_render_output_busy(const struct fw_render_output *render) {
	return render->inflight != NULL;
}

void fw_render_output_discard(struct fw_render_output *render) {
	if (render->inflight != NULL) {
		render->inflight->discarded = true;
	}
}

enum fw_render_result fw_render_output_paint(struct fw_render_output *render,
		struct wlr_scene_output *scene_output) {
	if (!can_paint(scene_output)) {
		return wlr_scene_output_commit(scene_output) ? FW_RENDER_COMMITTED
													 : FW_RENDER_IDLE;
	}
	if (render->inflight != NULL) {
		return FW_RENDER_BUSY;
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

	enum fw_render_result result = FW_RENDER_IDLE;
	bool needs_frame;
	if (!wlr_output_damage_attach_render(
				scene_output->damage, &needs_frame, &damage)) {
		goto out;
	}
	if (!needs_frame) {
		wlr_output_rollback(output);
		goto out;
	}
	if (!collect(&frame, &scene_output->scene->node, -scene_output->x,
				-scene_output->y)) {
		wlr_output_rollback(output);
		/* The damage stays pending, so the scene's own pass redraws it. */
		result = wlr_scene_output_commit(scene_output) ? FW_RENDER_COMMITTED
													   : FW_RENDER_IDLE;
		goto out;
	}
	/* With a worker, the job is built where the worker can have it. */
	struct inflight *f =
			render->worker != NULL ? inflight_create(render) : NULL;
	struct fw_paint_job local, *job = f != NULL ? &f->job : &local;
	if (f == NULL) {
		fw_paint_job_init(job);
	}
	build_job(&frame, job);
	if (f != NULL && !job->failed && !job->has_nodes &&
			fw_paint_worker_wants(render->worker, job) &&
			paint_there(render, f, scene_output)) {
		result = FW_RENDER_PAINTING;
		goto out;
	}
	result = paint_here(&frame, job, scene_output) ? FW_RENDER_COMMITTED
												   : FW_RENDER_IDLE;
	if (f != NULL) {
		inflight_free(f);
	} else {
		fw_paint_job_finish(job);
	}

out:
	finish_paints(&frame.paints);
	pixman_region32_fini(&damage);
	return result;
}
