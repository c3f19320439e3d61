#ifndef FAIRWAY_COMPOSITOR_INPUT_KEYBOARD_H
#define FAIRWAY_COMPOSITOR_INPUT_KEYBOARD_H

#include <wayland-server-core.h>

struct fw_server;
struct wlr_input_device;
struct wlr_keyboard;

struct fw_keyboard {
	struct wl_list link; /* fw_server.keyboards */
	struct fw_server *server;
	struct wlr_keyboard *wlr_keyboard;

	struct wl_listener modifiers;
	struct wl_listener key;
	struct wl_listener keymap;
	struct wl_listener destroy;
};

void fw_keyboard_create(
		struct fw_server *server, struct wlr_input_device *device);

#endif
