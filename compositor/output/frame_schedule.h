#ifndef FAIRWAY_COMPOSITOR_OUTPUT_FRAME_SCHEDULE_H
#define FAIRWAY_COMPOSITOR_OUTPUT_FRAME_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

struct capped_file;
struct fw_server;
struct fw_output;
struct wl_client;

/*
 * --frame-schedule auto: deadline-driven frames (scheduler/frame/frame_timing.h
 * has the arithmetic). Each output paints as late as is safe for its tick,
 * and each surface's frame done goes out ahead of the output's deadline by
 * the time its client takes to draw, so that a frame drawn on a frame done
 * is shown at the tick that frame done came from, not one tick later.
 * Nothing waits on a client: a commit that misses the deadline is shown at
 * the next tick.
 */
struct fw_frame_schedule;
struct fw_frame_output;

/* Tracks every surface from now on; call before clients connect. */
struct fw_frame_schedule *fw_frame_schedule_create(struct fw_server *server);
/* Every output's frame state must be gone. Accepts NULL. */
void fw_frame_schedule_destroy(struct fw_frame_schedule *schedule);
/* Input went to client: it gets the first claim on the time before each
 * deadline. */
void fw_frame_schedule_note_input(
		struct fw_frame_schedule *schedule, struct wl_client *client);

struct fw_frame_output *fw_frame_schedule_output_create(
		struct fw_frame_schedule *schedule, struct fw_output *output);
/* Accepts NULL. */
void fw_frame_schedule_output_destroy(struct fw_frame_output *frames);
/* The output's frame event: paints now or plans the paint. */
void fw_frame_schedule_output_frame(struct fw_frame_output *frames);
/* The paint began by the schedule is over: frame done events follow. */
void fw_frame_schedule_output_painted(
		struct fw_frame_output *frames, bool committed);

/* --stats: the client's frame figures as JSON fields to append to its
 * line (",\"frame\":{...}"), or "" for a client with no surface yet. */
int fw_frame_schedule_client_json(struct fw_frame_schedule *schedule,
		struct wl_client *client, char *buf, size_t size);
/* --stats: one line per output. */
void fw_frame_schedule_write_outputs(
		struct fw_frame_schedule *schedule, struct capped_file *out, double t);

#endif
