#ifndef FAIRWAY_COMPOSITOR_INPUT_DEFAULT_KEYBOARD_H
#define FAIRWAY_COMPOSITOR_INPUT_DEFAULT_KEYBOARD_H

#include <stdbool.h>

struct fw_server;
struct wlr_keyboard;

/* The seat's keymap while no keyboard device has one. */
bool fw_default_keyboard_init(struct fw_server *server);
void fw_default_keyboard_finish(struct fw_server *server);
/* Called as leaving goes away: the seat falls back if it was leaving. */
void fw_default_keyboard_restore(
		struct fw_server *server, struct wlr_keyboard *leaving);

#endif
