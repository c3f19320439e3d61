#ifndef FAIRWAY_COMPOSITOR_INPUT_SEAT_H
#define FAIRWAY_COMPOSITOR_INPUT_SEAT_H

#include <stdbool.h>

struct fw_server;
struct wl_client;
struct wlr_input_device;
struct wlr_surface;

bool fw_seat_init(struct fw_server *server);
void fw_seat_finish(struct fw_server *server);
void fw_seat_add_device(
		struct fw_server *server, struct wlr_input_device *device);
/* Keyboards call this on destroy so the seat stops advertising them. */
void fw_seat_keyboard_removed(struct fw_server *server);
void fw_seat_focus_surface(
		struct fw_server *server, struct wlr_surface *surface);
/*
 * Input went to client, or to the client of surface where known: key,
 * button, motion, axis, touch. It is boosted in the gate, gets the first
 * claim on the time before each frame deadline, and counts for its input
 * rating.
 */
void fw_seat_note_input(struct fw_server *server, struct wl_client *client,
		struct wlr_surface *surface);

#endif
