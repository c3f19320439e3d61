#ifndef FAIRWAY_COMPOSITOR_INPUT_INPUT_H
#define FAIRWAY_COMPOSITOR_INPUT_INPUT_H

#include <stdint.h>
#include <wayland-server-core.h>

struct fw_server;
struct wlr_input_device;
struct wlr_surface;

struct fw_keyboard {
	struct wl_list link; /* fw_server.keyboards */
	struct fw_server *server;
	struct wlr_input_device *device;

	struct wl_listener modifiers;
	struct wl_listener key;
	struct wl_listener destroy;
};

/* seat.c */
bool fw_seat_init(struct fw_server *server);
void fw_seat_finish(struct fw_server *server);
void fw_seat_add_device(
		struct fw_server *server, struct wlr_input_device *device);
void fw_seat_focus_surface(
		struct fw_server *server, struct wlr_surface *surface);
/* default_keyboard.c: the seat's keymap while no keyboard device has one. */
struct wlr_keyboard;
bool fw_default_keyboard_init(struct fw_server *server);
void fw_default_keyboard_finish(struct fw_server *server);
/* Called as leaving goes away: the seat falls back if it was leaving. */
void fw_default_keyboard_restore(
		struct fw_server *server, struct wlr_keyboard *leaving);
/* keyboard.c */
void fw_keyboard_create(
		struct fw_server *server, struct wlr_input_device *device);
/* cursor.c */
bool fw_cursor_init(struct fw_server *server);
void fw_cursor_finish(struct fw_server *server);
void fw_cursor_refocus(struct fw_server *server, uint32_t time_msec);
/*
 * What is under a pointer that stands still changed (a window mapped,
 * went, or moved): its focus follows, as if it had moved there.
 */
void fw_cursor_scene_changed(struct fw_server *server);
/* bindings.c: true when the key combination was a compositor binding. */
bool fw_bindings_handle(
		struct fw_server *server, uint32_t modifiers, uint32_t keysym);

#endif
