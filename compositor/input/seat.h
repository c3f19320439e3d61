#ifndef FAIRWAY_COMPOSITOR_INPUT_SEAT_H
#define FAIRWAY_COMPOSITOR_INPUT_SEAT_H

#include <stdbool.h>

struct fw_server;
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

#endif
