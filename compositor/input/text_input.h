#ifndef FAIRWAY_COMPOSITOR_INPUT_TEXT_INPUT_H
#define FAIRWAY_COMPOSITOR_INPUT_TEXT_INPUT_H

#include <stdbool.h>

struct fw_server;
struct wlr_keyboard;
struct wlr_keyboard_key_event;

/* The relay between text fields (text-input-v3) and an input method
 * (input-method-v2). */
bool fw_text_input_init(struct fw_server *server);
void fw_text_input_finish(struct fw_server *server);
/*
 * While an input method grabs the keyboard, a key or a modifier change of
 * keyboard goes to it: true when it went there, not to the window.
 */
bool fw_text_input_forward_key(struct fw_server *server,
		struct wlr_keyboard *keyboard, struct wlr_keyboard_key_event *event);
bool fw_text_input_forward_modifiers(
		struct fw_server *server, struct wlr_keyboard *keyboard);

#endif
