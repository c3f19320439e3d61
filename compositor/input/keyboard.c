#include "compositor/input/keyboard.h"
#include "compositor/input/bindings.h"
#include "compositor/input/default_keyboard.h"
#include "compositor/input/input_config.h"
#include "compositor/input/seat.h"
#include "compositor/input/text_input.h"
#include "compositor/input/x_keymap.h"
#include "compositor/listener.h"
#include "compositor/lock/idle.h"
#include "compositor/lock/lock.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

static void note_focused_client(struct fw_server *server) {
	struct wlr_seat_client *client =
			server->seat->keyboard_state.focused_client;
	if (client != NULL) {
		fw_seat_note_input(server, client->client, NULL);
	}
}

static void handle_modifiers(struct wl_listener *listener, void *data) {
	struct fw_keyboard *keyboard =
			wl_container_of(listener, keyboard, modifiers);
	struct fw_server *server = keyboard->server;
	if (fw_text_input_forward_modifiers(server, keyboard->wlr_keyboard)) {
		return;
	}
	if (fw_x_keymap_applies(server, keyboard->wlr_keyboard)) {
		fw_x_keymap_notify_modifiers(server, keyboard->wlr_keyboard);
		note_focused_client(server);
		return;
	}
	/* The seat sends the keymap of whichever keyboard spoke last. */
	wlr_seat_set_keyboard(server->seat, keyboard->wlr_keyboard);
	wlr_seat_keyboard_notify_modifiers(
			server->seat, &keyboard->wlr_keyboard->modifiers);
	note_focused_client(server);
}

static void handle_key(struct wl_listener *listener, void *data) {
	struct fw_keyboard *keyboard = wl_container_of(listener, keyboard, key);
	struct fw_server *server = keyboard->server;
	struct wlr_keyboard_key_event *event = data;
	struct wlr_keyboard *wlr_keyboard = keyboard->wlr_keyboard;

	fw_idle_activity(server);
	bool handled = false;
	/* No binding runs while the session is locked or input inhibited. */
	if (event->state == WL_KEYBOARD_KEY_STATE_PRESSED &&
			wlr_keyboard->xkb_state != NULL &&
			fw_lock_bindings_allowed(server)) {
		/* libinput keycodes are evdev codes; xkb's are offset by 8. */
		const xkb_keysym_t *syms;
		int nsyms = xkb_state_key_get_syms(
				wlr_keyboard->xkb_state, event->keycode + 8, &syms);
		uint32_t modifiers = wlr_keyboard_get_modifiers(wlr_keyboard);
		for (int i = 0; i < nsyms && !handled; i++) {
			handled = fw_bindings_handle(server, modifiers, syms[i]);
		}
	}
	if (handled || fw_text_input_forward_key(server, wlr_keyboard, event)) {
		return;
	}
	/* Focus is never given where input is refused; this is the backstop. */
	struct wlr_surface *focused = server->seat->keyboard_state.focused_surface;
	if (!fw_lock_input_allowed(server, focused)) {
		return;
	}
	if (!fw_x_keymap_applies(server, wlr_keyboard) ||
			!fw_x_keymap_notify_key(server, wlr_keyboard, event->time_msec,
					event->keycode, event->state)) {
		wlr_seat_set_keyboard(server->seat, wlr_keyboard);
		wlr_seat_keyboard_notify_key(
				server->seat, event->time_msec, event->keycode, event->state);
	}
	note_focused_client(server);
}

/*
 * A virtual keyboard's keymap reaches clients as soon as it is set, not
 * with its first key: Xwayland's X clients look keys up in the keymap of
 * the moment they read them, and one that arrived in the same batch as the
 * first key left no time for that.
 */
static void handle_keymap(struct wl_listener *listener, void *data) {
	struct fw_keyboard *keyboard = wl_container_of(listener, keyboard, keymap);
	/* An X window gets fairway's keymap instead (x_keymap.c). */
	if (keyboard->wlr_keyboard->keymap != NULL &&
			!fw_x_keymap_applies(keyboard->server, keyboard->wlr_keyboard)) {
		wlr_seat_set_keyboard(keyboard->server->seat, keyboard->wlr_keyboard);
	}
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_keyboard *keyboard = wl_container_of(listener, keyboard, destroy);
	struct fw_server *server = keyboard->server;
	fw_default_keyboard_restore(server, keyboard->wlr_keyboard);
	wl_list_remove(&keyboard->modifiers.link);
	wl_list_remove(&keyboard->key.link);
	wl_list_remove(&keyboard->keymap.link);
	wl_list_remove(&keyboard->destroy.link);
	wl_list_remove(&keyboard->link);
	free(keyboard);
	fw_seat_keyboard_removed(server);
}

void fw_keyboard_create(
		struct fw_server *server, struct wlr_input_device *device) {
	struct fw_keyboard *keyboard = calloc(1, sizeof(*keyboard));
	if (keyboard == NULL) {
		return;
	}
	struct wlr_keyboard *wlr_keyboard = wlr_keyboard_from_input_device(device);
	keyboard->server = server;
	keyboard->wlr_keyboard = wlr_keyboard;

	/* Its keymap and repeat rate, from the configuration file. */
	fw_input_config_keyboard(server, keyboard);

	fw_listener_connect(&keyboard->modifiers, &wlr_keyboard->events.modifiers,
			handle_modifiers);
	fw_listener_connect(&keyboard->key, &wlr_keyboard->events.key, handle_key);
	fw_listener_connect(
			&keyboard->keymap, &wlr_keyboard->events.keymap, handle_keymap);
	fw_listener_connect(
			&keyboard->destroy, &device->events.destroy, handle_destroy);

	wl_list_insert(&server->keyboards, &keyboard->link);
	/* Without a keymap yet (a new virtual keyboard), the seat would tell
	 * clients there is none; it becomes the seat keyboard when its keymap
	 * comes (handle_keymap). */
	if (wlr_keyboard->keymap != NULL) {
		wlr_seat_set_keyboard(server->seat, wlr_keyboard);
	}
}
