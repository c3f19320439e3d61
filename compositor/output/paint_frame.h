#ifndef FAIRWAY_COMPOSITOR_OUTPUT_PAINT_FRAME_H
#define FAIRWAY_COMPOSITOR_OUTPUT_PAINT_FRAME_H

#include "compositor/output/paint_job.h"
#include <pixman.h>
#include <stdbool.h>
#include <wayland-server-core.h>

struct fw_paint_worker;
struct wlr_buffer;
struct wlr_output;
struct wlr_scene_output;
struct wlr_swapchain;

/*
 * A frame of an output the paint worker paints, from its hand-over to its
 * commit: render.c builds its job, the worker runs it (paint_worker.h), and
 * once it is painted the main thread draws the software cursors and
 * commits it, if the output is still as it was.
 */
struct fw_paint_frame {
	struct wlr_output *output;
	struct fw_paint_job job; /* its target: an image over buffer's data */
	struct wlr_buffer *buffer; /* the swapchain buffer, locked */
	/* The output as it was: a frame for another is dropped. */
	struct wlr_swapchain *swapchain;
	int width, height;
	struct wlr_scene_output *scene_output; /* NULL once destroyed */
	/* What the paint covers: the buffer's damage from the ring. */
	pixman_region32_t damage;
	/* What the commit tells: the damage not committed when it began. */
	pixman_region32_t frame_damage;
	/* Never to be shown (fw_render_output_discard). */
	bool discarded;
	/* Told, from the loop, once the worker painted it. */
	void (*painted)(struct fw_paint_frame *frame, void *data);
	void *data;
	struct wl_listener scene_output_destroy;
};

struct fw_paint_frame *fw_paint_frame_create(struct wlr_output *output,
		void (*painted)(struct fw_paint_frame *frame, void *data), void *data);
/* Accepts NULL. */
void fw_paint_frame_destroy(struct fw_paint_frame *frame);
/*
 * Hands the frame's job to worker, with its own lock on buffer, which
 * nothing else uses until it is committed. False, with nothing handed
 * over, if the buffer cannot be painted by pixman alone.
 */
bool fw_paint_frame_submit(struct fw_paint_frame *frame,
		struct fw_paint_worker *worker, struct wlr_scene_output *scene_output,
		struct wlr_buffer *buffer, pixman_region32_t *damage);
/* The worker painted the frame: shows it, if it is still the output's. */
bool fw_paint_frame_commit(struct fw_paint_frame *frame);
/* Commits a painted buffer with the damage wlr_scene has not committed. */
bool fw_paint_frame_commit_buffer(struct wlr_output *output,
		struct wlr_buffer *buffer, const pixman_region32_t *frame_damage);

#endif
