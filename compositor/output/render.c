/*
 * Paints the scene onto an output with pixman itself when the output's
 * renderer is wlroots' pixman renderer.
 *
 * Every client waits behind a frame, as a frame is work that cannot be
 * interleaved with the gate, so a slow frame is everyone's latency
 * (bench/README.md). wlroots' pixman renderer draws through its render
 * pass, one operation per node, each setting up a clip and an image of
 * its own; this pass paints each pixel once: a node is clipped to the
 * damage minus everything opaque above it, and a plain buffer (one to one
 * onto its box, fully opaque as a node) is copied or blended straight from
 * its data, with no transform and no mask. What it does not know how to
 * copy exactly (a client's buffer that is scaled, rotated, cropped or
 * translucent as a whole) goes through the render pass as wlr_scene would
 * draw it, clipped the same way. A buffer of fairway's own that it cannot
 * copy, a rotated or flipped output or any other renderer leaves the frame
 * to wlr_scene_output_commit.
 *
 * On an output with a scale, each node's box is the one wlr_scene draws it
 * in (its logical box scaled, edges rounded), in the output buffer's
 * pixels, where the damage ring also is. A client that draws at the
 * output's scale (wp_fractional_scale_v1 and wp_viewporter, or a buffer
 * scale equal to an integer output scale) has a buffer the size of that
 * box, which is copied one to one as at scale 1.
 *
 * Damage is wlr_scene's: the pass takes the swapchain buffer's damage from
 * the scene output's damage ring and tells the commit the damage wlr_scene
 * has not committed yet, as wlr_scene_output_build_state does, so that the
 * scene's own pass can take over any frame.
 *
 * The pixel work is a paint job (paint_job.h). With a paint worker, a frame
 * that needs nothing of the renderer is painted on it, into the swapchain
 * buffer the frame was given, while the main thread serves clients; once
 * the worker is done, the main thread draws the software cursors and
 * commits the buffer with the frame's damage. Damage that comes during the
 * paint is kept for the next frame; a frame whose output changed, or that
 * the session lock discarded, is never shown.
 */
#include "compositor/output/render.h"
#include "compositor/output/paint_frame.h"
#include "compositor/output/paint_job.h"
#include "compositor/output/paint_worker.h"
#include <drm_fourcc.h>
#include <math.h>
#include <pixman.h>
#include <stdlib.h>
#include <wlr/render/pass.h>
#include <wlr/render/pixman.h>
#include <wlr/render/swapchain.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_damage_ring.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>
#include <wlr/util/region.h>
#include <wlr/util/transform.h>

enum paint_way {
	PAINT_RECT,
	/* Its data copied or blended one to one, here or on the worker. */
	PAINT_COPY,
	/* A client's texture through the render pass, on the main thread. */
	PAINT_TEXTURE,
};

struct paint {
	struct wlr_scene_node *node;
	enum paint_way way;
	struct wlr_box box; /* output coordinates */
	pixman_region32_t visible;
	pixman_region32_t opaque; /* what it hides of the nodes below */
	/* PAINT_COPY: whose data; a client's buffer, or fairway's own. */
	struct wlr_buffer *data;
	struct wl_client *client;
};

struct frame {
	struct wlr_output *output;
	float scale;
	struct wl_array paints; /* struct paint, bottom to top */
};

struct fw_render_output {
	struct wlr_output *output;
	struct fw_paint_worker *worker; /* NULL: paint on the main thread */
	void (*painted)(void *data, enum fw_render_result result);
	void *data;
	struct fw_paint_frame *frame; /* NULL while the worker paints nothing */
	const char *painter; /* who painted its last frame, for the log */
};

/* A node's size on the output, as wlr_scene sizes it. */
static void buffer_size(
		struct wlr_scene_buffer *scene_buffer, int *width, int *height) {
	if (scene_buffer->dst_width > 0 && scene_buffer->dst_height > 0) {
		*width = scene_buffer->dst_width;
		*height = scene_buffer->dst_height;
		return;
	}
	*width = scene_buffer->buffer->width;
	*height = scene_buffer->buffer->height;
	wlr_output_transform_coords(scene_buffer->transform, width, height);
}

/* A length at offset, scaled as wlr_scene scales a box's edges. */
static int scale_length(int length, int offset, float scale) {
	return (int)(lroundf((float)(offset + length) * scale) -
			lroundf((float)offset * scale));
}

/* A logical box on the output as wlr_scene draws it, in buffer pixels. */
static void scale_box(struct wlr_box *box, float scale) {
	box->width = scale_length(box->width, box->x, scale);
	box->height = scale_length(box->height, box->y, scale);
	box->x = (int)lroundf((float)box->x * scale);
	box->y = (int)lroundf((float)box->y * scale);
}

/*
 * A logical region in buffer pixels, as wlr_scene scales what is opaque:
 * outwards, and at a fractional scale a pixel more, so that a node's edge
 * pixels are its own, copied over what lies below rather than blended.
 */
static void scale_region(pixman_region32_t *region, float scale) {
	wlr_region_scale(region, region, scale);
	if (floorf(scale) != scale) {
		wlr_region_expand(region, region, 1);
	}
}

/* Its pixels go one to one onto its box on the output: whole, unrotated,
 * at full opacity, the buffer's size that of the box. */
static bool is_plain(
		struct wlr_scene_buffer *scene_buffer, const struct wlr_box *box) {
	struct wlr_buffer *buffer = scene_buffer->buffer;
	struct wlr_fbox whole = {
			.width = buffer->width,
			.height = buffer->height,
	};
	return scene_buffer->transform == WL_OUTPUT_TRANSFORM_NORMAL &&
			scene_buffer->opacity == 1.0f &&
			(wlr_fbox_empty(&scene_buffer->src_box) ||
					wlr_fbox_equal(&scene_buffer->src_box, &whole)) &&
			box->width == buffer->width && box->height == buffer->height;
}

/*
 * How a buffer node is painted. A client's buffer is read through its
 * source (the wl_shm buffer its texture wraps); whether its format is one
 * this pass copies is known once the job reads it, and a client's buffer
 * can always go through its texture. False for a buffer of fairway's own
 * that it cannot copy: wlr_scene keeps the texture it made of it private.
 */
static bool classify(struct paint *paint, struct wlr_scene_buffer *scene_buffer,
		bool *opaque_whole) {
	struct wlr_client_buffer *client =
			wlr_client_buffer_get(scene_buffer->buffer);
	*opaque_whole = false;
	if (client != NULL) {
		struct wlr_scene_surface *scene_surface =
				wlr_scene_surface_try_from_buffer(scene_buffer);
		if (is_plain(scene_buffer, &paint->box) && client->source != NULL &&
				scene_surface != NULL) {
			paint->way = PAINT_COPY;
			paint->data = client->source;
			paint->client =
					wl_resource_get_client(scene_surface->surface->resource);
		} else {
			paint->way = PAINT_TEXTURE;
		}
		return true;
	}
	void *data;
	uint32_t format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(scene_buffer->buffer,
				WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		return false;
	}
	wlr_buffer_end_data_ptr_access(scene_buffer->buffer);
	/* wlr_scene takes a buffer of its own as opaque by its format alone. */
	*opaque_whole = format == DRM_FORMAT_XRGB8888;
	if (is_plain(scene_buffer, &paint->box) &&
			fw_paint_job_format(format) != 0) {
		paint->way = PAINT_COPY;
		paint->data = scene_buffer->buffer;
	} else {
		/* A title drawn at a fractional scale, whose box rounds to a
		 * pixel more or less than its buffer. */
		paint->way = PAINT_TEXTURE;
	}
	return true;
}

/* What the node hides of those below it, as wlr_scene reckons it; logical:
 * its box before scaling. */
static void set_opaque(struct paint *paint, const struct wlr_box *logical,
		float scale, bool opaque_whole) {
	struct wlr_box *box = &paint->box;
	pixman_region32_init(&paint->opaque);
	if (paint->node->type == WLR_SCENE_NODE_RECT) {
		if (wlr_scene_rect_from_node(paint->node)->color[3] == 1.0f) {
			pixman_region32_union_rect(&paint->opaque, &paint->opaque, box->x,
					box->y, box->width, box->height);
		}
		return;
	}
	struct wlr_scene_buffer *scene_buffer =
			wlr_scene_buffer_from_node(paint->node);
	if (scene_buffer->opacity != 1.0f) {
		return;
	}
	if (opaque_whole) {
		pixman_region32_union_rect(&paint->opaque, &paint->opaque, box->x,
				box->y, box->width, box->height);
		return;
	}
	pixman_region32_intersect_rect(&paint->opaque, &scene_buffer->opaque_region,
			0, 0, logical->width, logical->height);
	pixman_region32_translate(&paint->opaque, logical->x, logical->y);
	scale_region(&paint->opaque, scale);
	pixman_region32_intersect_rect(&paint->opaque, &paint->opaque, box->x,
			box->y, box->width, box->height);
}

/*
 * Collects the enabled nodes that show on the output, in paint order.
 * False for a node this pass cannot paint.
 */
static bool collect(
		struct frame *frame, struct wlr_scene_node *node, int x, int y) {
	if (!node->enabled) {
		return true;
	}
	x += node->x;
	y += node->y;

	struct paint paint = {.node = node, .box = {.x = x, .y = y}};
	struct wlr_box logical = paint.box;
	bool opaque_whole = false;
	switch (node->type) {
	case WLR_SCENE_NODE_TREE:;
		struct wlr_scene_tree *tree = wlr_scene_tree_from_node(node);
		struct wlr_scene_node *child;
		wl_list_for_each(child, &tree->children, link) {
			if (!collect(frame, child, x, y)) {
				return false;
			}
		}
		return true;
	case WLR_SCENE_NODE_RECT:;
		struct wlr_scene_rect *rect = wlr_scene_rect_from_node(node);
		if (rect->color[3] == 0.0f) {
			return true;
		}
		paint.way = PAINT_RECT;
		paint.box.width = rect->width;
		paint.box.height = rect->height;
		logical = paint.box;
		scale_box(&paint.box, frame->scale);
		break;
	case WLR_SCENE_NODE_BUFFER:;
		struct wlr_scene_buffer *scene_buffer =
				wlr_scene_buffer_from_node(node);
		if (scene_buffer->buffer == NULL) {
			return true;
		}
		buffer_size(scene_buffer, &paint.box.width, &paint.box.height);
		logical = paint.box;
		scale_box(&paint.box, frame->scale);
		struct wlr_box on_output = {
				.width = frame->output->width,
				.height = frame->output->height,
		};
		if (!wlr_box_intersection(&on_output, &on_output, &paint.box)) {
			return true;
		}
		if (!classify(&paint, scene_buffer, &opaque_whole)) {
			return false;
		}
		break;
	}

	pixman_region32_init_rect(
			&paint.visible, 0, 0, frame->output->width, frame->output->height);
	pixman_region32_intersect_rect(&paint.visible, &paint.visible, paint.box.x,
			paint.box.y, paint.box.width, paint.box.height);
	if (!pixman_region32_not_empty(&paint.visible)) {
		pixman_region32_fini(&paint.visible);
		return true;
	}
	struct paint *slot = wl_array_add(&frame->paints, sizeof(*slot));
	if (slot == NULL) {
		pixman_region32_fini(&paint.visible);
		return false;
	}
	set_opaque(&paint, &logical, frame->scale, opaque_whole);
	*slot = paint;
	return true;
}

static void finish_paints(struct wl_array *paints) {
	struct paint *paint;
	wl_array_for_each(paint, paints) {
		pixman_region32_fini(&paint->visible);
		pixman_region32_fini(&paint->opaque);
	}
	wl_array_release(paints);
}

/* Nothing of region lies outside what the paint hides, so it is copied,
 * not blended, as wlr_scene does. */
static bool paints_opaque(struct paint *paint, pixman_region32_t *region) {
	pixman_region32_t rest;
	pixman_region32_init(&rest);
	pixman_region32_subtract(&rest, region, &paint->opaque);
	bool opaque = !pixman_region32_not_empty(&rest);
	pixman_region32_fini(&rest);
	return opaque;
}

/*
 * The data pointer is taken at every frame, not kept: a client's pool can
 * be mapped anew. The buffer stays locked while the job lives.
 */
static void add_buffer(struct fw_paint_job *job, struct paint *paint) {
	bool opaque = paints_opaque(paint, &paint->visible);
	if (paint->way == PAINT_COPY) {
		long source = fw_paint_job_add_source(job, paint->data, paint->client);
		if (source >= 0) {
			fw_paint_job_composite(job, &paint->visible, (size_t)source,
					paint->box.x, paint->box.y, opaque);
			return;
		}
		if (paint->client == NULL) {
			/* Out of memory: the job failed. */
			return;
		}
	}
	fw_paint_job_node(job, &paint->visible, paint->node, paint->box.x,
			paint->box.y, paint->box.width, paint->box.height, opaque);
}

/* The frame's pixel work, each damaged pixel once. */
static void build_job(struct frame *frame, pixman_region32_t *damage,
		struct fw_paint_job *job) {
	size_t count = frame->paints.size / sizeof(struct paint);
	struct paint *paints = frame->paints.data;

	/* Top down: each node loses what the nodes above it hide. */
	pixman_region32_t covered, hidden;
	pixman_region32_init(&covered);
	pixman_region32_init(&hidden);
	for (size_t i = count; i-- > 0;) {
		struct paint *paint = &paints[i];
		pixman_region32_intersect(&paint->visible, &paint->visible, damage);
		pixman_region32_subtract(&paint->visible, &paint->visible, &covered);
		pixman_region32_intersect(&hidden, &paint->opaque, &paint->visible);
		pixman_region32_union(&covered, &covered, &hidden);
	}
	pixman_region32_fini(&hidden);

	pixman_region32_t background;
	pixman_region32_init(&background);
	pixman_region32_subtract(&background, damage, &covered);
	fw_paint_job_fill(job, &background, (float[4]){0.0f, 0.0f, 0.0f, 1.0f});
	pixman_region32_fini(&background);
	pixman_region32_fini(&covered);

	for (size_t i = 0; i < count; i++) {
		struct paint *paint = &paints[i];
		if (!pixman_region32_not_empty(&paint->visible)) {
			continue;
		}
		if (paint->way == PAINT_RECT) {
			fw_paint_job_fill(job, &paint->visible,
					wlr_scene_rect_from_node(paint->node)->color);
		} else {
			add_buffer(job, paint);
		}
	}
}

struct texture_pass {
	struct wlr_renderer *renderer;
	struct wlr_render_pass *pass;
};

/*
 * What wlr_scene itself draws of a buffer, clipped to what shows. A client's
 * has its texture; wlr_scene keeps the one it made of a buffer of fairway's
 * own to itself, so this makes its own, which the pixman renderer makes
 * over the buffer's data and has drawn by the time the call returns.
 */
static void draw_texture(void *data, struct fw_paint_op *op) {
	struct texture_pass *texture_pass = data;
	struct wlr_scene_buffer *scene_buffer =
			wlr_scene_buffer_from_node(op->node);
	struct wlr_client_buffer *client =
			wlr_client_buffer_get(scene_buffer->buffer);
	struct wlr_texture *texture = NULL, *own = NULL;
	if (client != NULL) {
		texture = client->texture;
	} else {
		texture = own = wlr_texture_from_buffer(
				texture_pass->renderer, scene_buffer->buffer);
	}
	if (texture == NULL) {
		return;
	}
	struct wlr_box box = {
			.x = op->x,
			.y = op->y,
			.width = op->width,
			.height = op->height,
	};
	/*
	 * pixman samples outside an image as transparent: bilinear, one pixel
	 * stretched (a wp_single_pixel_buffer_v1's, through a viewport) would
	 * fade out from its centre. Every point of it is that pixel.
	 */
	enum wlr_scale_filter_mode filter = scene_buffer->filter_mode;
	if (texture->width == 1 && texture->height == 1) {
		filter = WLR_SCALE_FILTER_NEAREST;
	}
	wlr_render_pass_add_texture(texture_pass->pass,
			&(struct wlr_render_texture_options){
					.texture = texture,
					.src_box = scene_buffer->src_box,
					.dst_box = box,
					.transform = wlr_output_transform_invert(
							scene_buffer->transform),
					.clip = &op->region,
					.alpha = &scene_buffer->opacity,
					.filter_mode = filter,
					.blend_mode = op->op == PIXMAN_OP_SRC
							? WLR_RENDER_BLEND_MODE_NONE
							: WLR_RENDER_BLEND_MODE_PREMULTIPLIED,
			});
	wlr_texture_destroy(own);
}

/* True where this pass draws exactly what wlr_scene would. */
static bool can_paint(struct wlr_scene_output *scene_output) {
	struct wlr_output *output = scene_output->output;
	return output->renderer != NULL &&
			wlr_renderer_is_pixman(output->renderer) &&
			output->transform == WL_OUTPUT_TRANSFORM_NORMAL;
}

/* On the main thread, into the buffer through a render pass, and commits. */
static bool paint_here(struct fw_paint_job *job,
		struct wlr_scene_output *scene_output, struct wlr_buffer *buffer,
		pixman_region32_t *damage) {
	struct wlr_output *output = scene_output->output;
	struct wlr_render_pass *pass =
			wlr_renderer_begin_buffer_pass(output->renderer, buffer, NULL);
	if (pass == NULL) {
		wlr_damage_ring_add_whole(&scene_output->damage_ring);
		return false;
	}
	/* The pixman pass draws as it is told: it and the job take turns on
	 * the one image, which it leaves unclipped between its operations. */
	job->target = pixman_image_ref(
			wlr_pixman_renderer_get_buffer_image(output->renderer, buffer));
	struct texture_pass texture_pass = {
			.renderer = output->renderer,
			.pass = pass,
	};
	fw_paint_job_run_main(job, draw_texture, &texture_pass);
	wlr_output_add_software_cursors_to_render_pass(output, pass, damage);
	if (!wlr_render_pass_submit(pass)) {
		/* Its contents are anyone's guess. */
		wlr_damage_ring_add_whole(&scene_output->damage_ring);
		return false;
	}
	return fw_paint_frame_commit_buffer(
			output, buffer, &scene_output->pending_commit_damage);
}

static void handle_painted(struct fw_paint_frame *frame, void *data) {
	struct fw_render_output *render = data;
	render->frame = NULL;
	render->output->frame_pending = false;
	bool committed = render->painted != NULL && fw_paint_frame_commit(frame);
	bool discarded = frame->discarded;
	fw_paint_frame_destroy(frame);
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
	if (render->frame != NULL) {
		render->frame->discarded = true;
		render->painted = NULL;
		fw_paint_worker_finish(render->worker, &render->frame->job);
	}
	free(render);
}

bool fw_render_output_busy(const struct fw_render_output *render) {
	return render->frame != NULL;
}

void fw_render_output_discard(struct fw_render_output *render) {
	if (render->frame != NULL) {
		render->frame->discarded = true;
	}
}

/* Nothing to commit: no damage, and no frame the output needs or that is
 * wanted. */
static bool nothing_to_commit(struct wlr_scene_output *scene_output,
		const struct fw_render_options *options) {
	return (!options->unchanged || !scene_output->output->needs_frame) &&
			!pixman_region32_not_empty(&scene_output->pending_commit_damage);
}

/* wlr_scene_output_commit, with a tearing page flip where the backend
 * takes one. */
enum fw_render_result fw_render_scene_commit(
		struct wlr_scene_output *scene_output,
		const struct fw_render_options *options) {
	struct wlr_output *output = scene_output->output;
	if (nothing_to_commit(scene_output, options)) {
		/* wlr_scene_output_commit calls this a success, kept where
		 * unchanged frames are committed; where they are not, the frame
		 * schedule must learn that no tick is coming. */
		return options->unchanged ? FW_RENDER_COMMITTED : FW_RENDER_IDLE;
	}
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	bool ok = wlr_scene_output_build_state(scene_output, &state, NULL);
	if (ok && options->tearing) {
		state.tearing_page_flip = true;
		if (!wlr_output_test_state(output, &state)) {
			state.tearing_page_flip = false;
		}
	}
	ok = ok && wlr_output_commit_state(output, &state);
	wlr_output_state_finish(&state);
	return ok ? FW_RENDER_COMMITTED : FW_RENDER_IDLE;
}

/* Says who paints the output when that changes: a frame left to
 * wlr_scene costs every client more (bench/README.md). */
static void note_painter(struct fw_render_output *render, const char *painter) {
	if (render->painter != painter) {
		render->painter = painter;
		wlr_log(WLR_INFO, "Output %s: %s paints it (scale %.2f)",
				render->output->name, painter, render->output->scale);
	}
}

static enum fw_render_result scene_commit(struct fw_render_output *render,
		struct wlr_scene_output *scene_output,
		const struct fw_render_options *options, const char *why) {
	note_painter(render, why);
	return fw_render_scene_commit(scene_output, options);
}

enum fw_render_result fw_render_output_paint(struct fw_render_output *render,
		struct wlr_scene_output *scene_output,
		const struct fw_render_options *options) {
	if (!can_paint(scene_output)) {
		return scene_commit(render, scene_output, options,
				"wlr_scene (a transform or another renderer)");
	}
	if (render->frame != NULL) {
		return FW_RENDER_BUSY;
	}
	struct wlr_output *output = scene_output->output;
	/* What wlr_scene_output_commit asks first. */
	if (nothing_to_commit(scene_output, options)) {
		return FW_RENDER_IDLE;
	}
	struct frame frame = {.output = output, .scale = output->scale};
	wl_array_init(&frame.paints);
	/* Before the ring is rotated for a buffer this pass would not paint. */
	if (!collect(&frame, &scene_output->scene->tree.node, -scene_output->x,
				-scene_output->y)) {
		finish_paints(&frame.paints);
		return scene_commit(render, scene_output, options,
				"wlr_scene (a buffer of fairway's own it cannot copy)");
	}

	note_painter(render, "fairway's pass");
	enum fw_render_result result = FW_RENDER_IDLE;
	if (!wlr_output_configure_primary_swapchain(
				output, NULL, &output->swapchain)) {
		goto out;
	}
	struct wlr_buffer *buffer = wlr_swapchain_acquire(output->swapchain, NULL);
	if (buffer == NULL) {
		goto out;
	}
	struct wlr_damage_ring *ring = &scene_output->damage_ring;
	wlr_damage_ring_set_bounds(ring, output->width, output->height);
	pixman_region32_t damage;
	pixman_region32_init(&damage);
	wlr_damage_ring_rotate_buffer(ring, buffer, &damage);

	/* With a worker, the job is built where the worker can have it. */
	struct fw_paint_frame *f = render->worker != NULL
			? fw_paint_frame_create(output, handle_painted, render)
			: NULL;
	struct fw_paint_job local, *job = f != NULL ? &f->job : &local;
	if (f == NULL) {
		fw_paint_job_init(job);
	}
	build_job(&frame, &damage, job);
	if (f != NULL && !job->failed && !job->has_nodes &&
			fw_paint_worker_wants(render->worker, job) &&
			fw_paint_frame_submit(
					f, render->worker, scene_output, buffer, &damage)) {
		render->frame = f;
		result = FW_RENDER_PAINTING;
	} else {
		result = paint_here(job, scene_output, buffer, &damage)
				? FW_RENDER_COMMITTED
				: FW_RENDER_IDLE;
		if (f != NULL) {
			fw_paint_frame_destroy(f);
		} else {
			fw_paint_job_finish(job);
		}
	}
	pixman_region32_fini(&damage);
	wlr_buffer_unlock(buffer);

out:
	finish_paints(&frame.paints);
	return result;
}
