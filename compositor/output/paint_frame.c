/*
 * A frame the paint worker paints, from the main thread's side: its
 * buffer, locked while the worker paints into it, and the output as it
 * was, so that a frame painted for an output that changed meanwhile (its
 * size, its swapchain, its scene output gone) or one the session lock
 * discarded is never shown. The commit draws the software cursors where
 * they are then and gives back to wlr_scene the damage that came during
 * the paint.
 */
#include "compositor/output/paint_frame.h"
#include "compositor/listener.h"
#include "compositor/output/paint_worker.h"
#include <stdlib.h>
#include <wlr/render/pass.h>
#include <wlr/render/swapchain.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_damage_ring.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>

/*
 * Damage for wlr_scene to repaint and report with a later commit, given
 * through the output's damage signal: the scene output's way in for damage
 * that is not the scene's (wlroots' software cursors use it). Without a
 * transform, output and ring coordinates are the same: buffer pixels.
 */
static void damage_output(
		struct wlr_output *output, const pixman_region32_t *region) {
	struct wlr_output_event_damage event = {
			.output = output,
			.damage = region,
	};
	wl_signal_emit_mutable(&output->events.damage, &event);
}

static void damage_output_whole(struct wlr_output *output) {
	pixman_region32_t whole;
	pixman_region32_init_rect(&whole, 0, 0, output->width, output->height);
	damage_output(output, &whole);
	pixman_region32_fini(&whole);
}

bool fw_paint_frame_commit_buffer(struct wlr_output *output,
		struct wlr_buffer *buffer, const pixman_region32_t *frame_damage) {
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_damage(&state, frame_damage);
	wlr_output_state_set_buffer(&state, buffer);
	bool ok = wlr_output_commit_state(output, &state);
	wlr_output_state_finish(&state);
	return ok;
}

void fw_paint_frame_destroy(struct fw_paint_frame *f) {
	if (f == NULL) {
		return;
	}
	fw_paint_job_finish(&f->job);
	if (f->buffer != NULL) {
		wlr_buffer_unlock(f->buffer);
	}
	pixman_region32_fini(&f->damage);
	pixman_region32_fini(&f->frame_damage);
	fw_listener_disconnect(&f->scene_output_destroy);
	free(f);
}

bool fw_paint_frame_commit(struct fw_paint_frame *f) {
	struct wlr_output *output = f->output;
	struct wlr_scene_output *scene_output = f->scene_output;
	if (f->discarded || scene_output == NULL || !output->enabled ||
			output->swapchain != f->swapchain || output->width != f->width ||
			output->height != f->height) {
		if (scene_output != NULL) {
			damage_output_whole(output);
		}
		return false;
	}
	/* The software cursors where they are now: the renderer is the main
	 * thread's. */
	struct wlr_render_pass *pass =
			wlr_renderer_begin_buffer_pass(output->renderer, f->buffer, NULL);
	if (pass == NULL) {
		damage_output_whole(output);
		return false;
	}
	wlr_output_add_software_cursors_to_render_pass(output, pass, &f->damage);
	if (!wlr_render_pass_submit(pass)) {
		wlr_damage_ring_add_whole(&scene_output->damage_ring);
		damage_output_whole(output);
		return false;
	}
	bool ok = fw_paint_frame_commit_buffer(output, f->buffer, &f->frame_damage);
	/*
	 * The commit took the frame's damage off what wlr_scene has still to
	 * commit, and with it any damage that came during the paint in the same
	 * places: that damage, which the ring kept for the next frame, goes
	 * back.
	 */
	struct wlr_damage_ring *ring = &scene_output->damage_ring;
	if (pixman_region32_not_empty(&ring->current)) {
		pixman_region32_t later;
		pixman_region32_init(&later);
		pixman_region32_copy(&later, &ring->current);
		damage_output(output, &later);
		pixman_region32_fini(&later);
	}
	return ok;
}

static void handle_painted(struct fw_paint_job *job) {
	struct fw_paint_frame *f = wl_container_of(job, f, job);
	f->painted(f, f->data);
}

static void handle_scene_output_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_paint_frame *f =
			wl_container_of(listener, f, scene_output_destroy);
	f->scene_output = NULL;
	fw_listener_disconnect(&f->scene_output_destroy);
}

struct fw_paint_frame *fw_paint_frame_create(struct wlr_output *output,
		void (*painted)(struct fw_paint_frame *frame, void *data), void *data) {
	struct fw_paint_frame *f = calloc(1, sizeof(*f));
	if (f == NULL) {
		return NULL;
	}
	f->output = output;
	f->painted = painted;
	f->data = data;
	fw_paint_job_init(&f->job);
	pixman_region32_init(&f->damage);
	pixman_region32_init(&f->frame_damage);
	return f;
}

bool fw_paint_frame_submit(struct fw_paint_frame *f,
		struct fw_paint_worker *worker, struct wlr_scene_output *scene_output,
		struct wlr_buffer *buffer, pixman_region32_t *damage) {
	struct wlr_output *output = f->output;
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
	pixman_format_code_t format = fw_paint_job_format(drm_format);
	if (format == 0) {
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
	f->scene_output = scene_output;
	fw_listener_connect(&f->scene_output_destroy, &scene_output->events.destroy,
			handle_scene_output_destroy);
	pixman_region32_copy(&f->damage, damage);
	pixman_region32_copy(
			&f->frame_damage, &scene_output->pending_commit_damage);
	/* No frame event between now and the commit: it would be taken for a
	 * tick, and its frame could not be painted anyway. */
	output->frame_pending = true;
	fw_paint_worker_submit(worker, &f->job);
	return true;
}
