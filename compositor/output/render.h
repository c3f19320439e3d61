#ifndef FAIRWAY_COMPOSITOR_OUTPUT_RENDER_H
#define FAIRWAY_COMPOSITOR_OUTPUT_RENDER_H

#include <stdbool.h>

struct fw_paint_worker;
struct wlr_output;
struct wlr_scene_output;

/*
 * Renders and commits a scene output's damage, as wlr_scene_output_commit
 * does, painting each damaged pixel once where the renderer is pixman, on
 * the paint worker when there is one (paint_worker.h).
 */
struct fw_render_output;

enum fw_render_result {
	FW_RENDER_COMMITTED, /* painted and committed */
	FW_RENDER_IDLE, /* nothing to paint, or it failed: nothing committed */
	FW_RENDER_PAINTING, /* the worker paints: painted comes later */
	FW_RENDER_BUSY, /* the worker still paints the previous frame */
	/* A frame painted and then discarded (fw_render_output_discard). */
	FW_RENDER_DISCARDED,
};

/* worker: NULL to paint on the main thread. painted: told, from the loop,
 * once a frame the worker painted was committed (FW_RENDER_COMMITTED),
 * could not be (FW_RENDER_IDLE), or was discarded. */
struct fw_render_output *fw_render_output_create(struct wlr_output *output,
		struct fw_paint_worker *worker,
		void (*painted)(void *data, enum fw_render_result result), void *data);
/* A frame being painted is dropped, unseen and untold. Accepts NULL. */
void fw_render_output_destroy(struct fw_render_output *render);

struct fw_render_options {
	/*
	 * The frame may be flipped at once rather than at the refresh
	 * (wp_tearing_control_v1), where the backend takes it; wlr_scene's
	 * pass only, which a renderer other than pixman always takes.
	 */
	bool tearing;
	/*
	 * Commit a frame with nothing damaged when the output needs one: a
	 * surface asked for a frame callback (wlroots counts on a commit to
	 * answer it), or a hardware cursor moved. Without this, only damage
	 * is committed.
	 */
	bool unchanged;
};

enum fw_render_result fw_render_output_paint(struct fw_render_output *render,
		struct wlr_scene_output *scene_output,
		const struct fw_render_options *options);
/* wlr_scene's own pass and commit (--render scene), as above. */
enum fw_render_result fw_render_scene_commit(
		struct wlr_scene_output *scene_output,
		const struct fw_render_options *options);
/* The worker paints a frame of this output. */
bool fw_render_output_busy(const struct fw_render_output *render);
/*
 * The frame being painted must never be shown (it shows a scene that no
 * longer may be: the session just locked). It is dropped once painted and
 * the output painted again.
 */
void fw_render_output_discard(struct fw_render_output *render);

#endif
