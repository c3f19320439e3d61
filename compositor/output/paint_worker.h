#ifndef FAIRWAY_COMPOSITOR_OUTPUT_PAINT_WORKER_H
#define FAIRWAY_COMPOSITOR_OUTPUT_PAINT_WORKER_H

#include <stdbool.h>

struct fw_paint_job;
struct wl_display;

/*
 * The thread that paints outputs where the renderer is pixman, so that the
 * main thread serves clients while a frame is painted. It runs the jobs
 * handed to it in order (paint_job.h says what it may touch) and tells the
 * main thread, through an eventfd in its loop, that a job was painted: the
 * job's painted callback then runs there.
 *
 * No request pulls memory from under a job: a wl_shm_pool.resize maps the
 * pool anew, and fairway's wl_shm (shm.h) keeps the old mapping while a
 * buffer made from it lives, which each job's locks ensure.
 */
struct fw_paint_worker;

struct fw_paint_worker *fw_paint_worker_create(struct wl_display *display);
/* Every job must have been finished. Accepts NULL. */
void fw_paint_worker_destroy(struct fw_paint_worker *worker);

/*
 * Whether the job is worth handing over: a small paint costs the main
 * thread less than the hand-over (a wakeup each way) and holds its clients
 * for a few microseconds; a large one, for the length of a memcpy of the
 * output.
 */
bool fw_paint_worker_wants(
		const struct fw_paint_worker *worker, const struct fw_paint_job *job);
/* Hands the job over; its painted callback comes from the loop. */
void fw_paint_worker_submit(
		struct fw_paint_worker *worker, struct fw_paint_job *job);
/* Waits until the job handed over was painted, and runs its painted
 * callback now (an output going away). */
void fw_paint_worker_finish(
		struct fw_paint_worker *worker, struct fw_paint_job *job);

#endif
