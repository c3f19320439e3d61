#ifndef FAIRWAY_COMPOSITOR_OUTPUT_PAINT_JOB_H
#define FAIRWAY_COMPOSITOR_OUTPUT_PAINT_JOB_H

#include <pixman.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct wlr_buffer;
struct wlr_scene_node;

/*
 * A frame's pixel work as a list of pixman operations over regions that
 * render.c worked out: fills, and copies or blends of buffers. It is built
 * on the main thread, and run there or on the paint worker
 * (paint_worker.h).
 *
 * What the worker may touch is the job alone: its operations and regions,
 * the target image, and the images over the sources' data. The main thread
 * locks every source buffer while the job lives, so that its client gets no
 * wl_buffer.release and its memory stays mapped (wlroots keeps the pool of
 * a wl_buffer destroyed meanwhile); it builds and frees everything, and the
 * worker calls nothing of wlroots or libwayland.
 */

enum fw_paint_op_type {
	FW_PAINT_FILL,
	FW_PAINT_COMPOSITE,
	/* Drawn through the renderer's pass: on the main thread only. */
	FW_PAINT_NODE,
};

/* A buffer the job reads, locked from fw_paint_job_add_source on. */
struct fw_paint_source {
	struct wlr_buffer *buffer;
	pixman_image_t *image; /* over its data */
	/* Its data, for fairway's SIGBUS guard (shm_guard.h). */
	const char *start;
	size_t size;
	/* Whose memory it is: NULL for fairway's own buffers. */
	struct fw_paint_client *owner;
	bool faulted; /* found truncated while read */
};

/* A client whose buffers the job reads, known for as long as it lives. */
struct fw_paint_client {
	struct wl_client *client; /* NULL once it went */
	bool faulted;
	struct wl_listener destroy;
	struct wl_list link; /* fw_paint_job.clients */
};

struct fw_paint_op {
	enum fw_paint_op_type type;
	pixman_region32_t region; /* where, in the target */
	/* PIXMAN_OP_SRC or PIXMAN_OP_OVER; for NODE, whether it blends. */
	pixman_op_t op;
	pixman_color_t color; /* FILL */
	size_t source; /* COMPOSITE: index into the job's sources */
	/* COMPOSITE, NODE: where the source's or the node's origin goes. */
	int x, y;
	int width, height; /* NODE: the size of its box on the target */
	struct wlr_scene_node *node; /* NODE */
};

struct fw_paint_job {
	pixman_image_t *target;
	struct wl_array ops; /* struct fw_paint_op, in paint order */
	struct wl_array sources; /* struct fw_paint_source * */
	struct wl_list clients; /* fw_paint_client.link */
	bool has_nodes; /* some op needs the renderer */
	uint64_t pixels; /* what the operations write, all told */
	bool failed; /* out of memory while building */
	/* The paint worker's, under its lock: its queues, and whether it is
	 * done with the job. */
	struct wl_list link;
	bool worker_done;
	/* The main thread is told, once the worker painted it. */
	void (*painted)(struct fw_paint_job *job);
};

void fw_paint_job_init(struct fw_paint_job *job);
/* Unlocks the sources (their releases go out), disconnects any client
 * whose buffer turned out truncated, and frees what the job holds. */
void fw_paint_job_finish(struct fw_paint_job *job);

/* Fills region with a premultiplied colour. */
void fw_paint_job_fill(struct fw_paint_job *job, pixman_region32_t *region,
		const float color[static 4]);
/*
 * Copies (opaque) or blends the source's pixels into region, the source's
 * origin at x, y. The source comes from fw_paint_job_add_source.
 */
void fw_paint_job_composite(struct fw_paint_job *job, pixman_region32_t *region,
		size_t source, int x, int y, bool opaque);
/* A node the renderer must draw into the box at x, y of width by height,
 * clipped to region; opaque: it hides all of region, so it is copied
 * rather than blended. */
void fw_paint_job_node(struct fw_paint_job *job, pixman_region32_t *region,
		struct wlr_scene_node *node, int x, int y, int width, int height,
		bool opaque);
/* The pixman format of data in drm_format that jobs copy and paint into:
 * ARGB8888 and XRGB8888; 0 for any other. */
pixman_format_code_t fw_paint_job_format(uint32_t drm_format);
/*
 * Locks buffer for the job and makes an image over its data; client: whose
 * memory it is, NULL for fairway's. Returns the source's index, or -1: the
 * buffer has no data pointer or a format the job does not copy, or out of
 * memory (the job failed).
 */
long fw_paint_job_add_source(struct fw_paint_job *job,
		struct wlr_buffer *buffer, struct wl_client *client);

/*
 * Runs the job on the main thread, its sources read under fairway's SIGBUS
 * guard as on the worker (shm_guard.h), so that a client that truncated its
 * pool is found and told. draw_node paints the NODE operations.
 */
void fw_paint_job_run_main(struct fw_paint_job *job,
		void (*draw_node)(void *data, struct fw_paint_op *op), void *data);
/* Runs the job on the paint worker: no node operations, and no call to
 * wlroots or libwayland. */
void fw_paint_job_run_worker(struct fw_paint_job *job);

#endif
