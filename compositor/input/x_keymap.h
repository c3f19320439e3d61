#ifndef FAIRWAY_COMPOSITOR_INPUT_X_KEYMAP_H
#define FAIRWAY_COMPOSITOR_INPUT_X_KEYMAP_H

#include <stdbool.h>
#include <stdint.h>

struct fw_server;
struct wlr_keyboard;

/*
 * The keymap virtual keyboards type into X clients with (x_keymap.c says
 * why). Made with the seat, gone with it.
 */
struct fw_x_keymap *fw_x_keymap_create(void);
void fw_x_keymap_destroy(struct fw_x_keymap *xk);

/*
 * Whether keys and modifiers of keyboard go through the X keymap now: it
 * is a virtual keyboard and an X window has the keyboard focus.
 */
bool fw_x_keymap_applies(
		struct fw_server *server, struct wlr_keyboard *keyboard);

/*
 * Sends a key of keyboard to the focused X window as the key of the X
 * keymap that makes the same keysym, growing the keymap first if it has
 * none; false if the key makes no keysym (the caller sends it as it is).
 */
bool fw_x_keymap_notify_key(struct fw_server *server,
		struct wlr_keyboard *keyboard, uint32_t time_msec, uint32_t keycode,
		uint32_t state);

/* Sends keyboard's modifiers, with the X keymap the seat's. */
void fw_x_keymap_notify_modifiers(
		struct fw_server *server, struct wlr_keyboard *keyboard);

#endif
