#include "compositor/input/default_keyboard.h"
/*
 * The seat's keyboard while no keyboard device speaks for it.
 *
 * fairway always advertises a keyboard (seat.c says why), so clients bind
 * wl_keyboard and get enter and modifiers events whenever they take focus.
 * wlroots sends a keymap only from the seat's keyboard, though, and
 * without a keyboard device (headless, or between the last keyboard going
 * and the next one coming) there is none: a client then gets modifiers
 * with no keymap before them. fuzzel, among others, feeds those straight
 * to xkb_state_update_mask with no state and crashes on its first focus.
 *
 * So the seat falls back to a keyboard of its own, with no device behind
 * it and the default keymap, whenever the keyboard it had goes away.
 */
#include "compositor/input/input_config.h"
#include "compositor/server.h"
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_keyboard_group.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>

bool fw_default_keyboard_init(struct fw_server *server) {
	/* A keyboard group is a wlr_keyboard with no device of its own. */
	struct wlr_keyboard_group *group = wlr_keyboard_group_create();
	if (group == NULL) {
		return false;
	}
	server->default_keyboard = group;
	/* The keymap the configuration file names, else xkbcommon's default. */
	if (!fw_input_config_default_keyboard(server)) {
		wlr_log(WLR_ERROR, "Cannot compile a keymap for the seat");
		wlr_keyboard_group_destroy(group);
		server->default_keyboard = NULL;
		return false;
	}
	if (wlr_seat_get_keyboard(server->seat) == NULL) {
		wlr_seat_set_keyboard(server->seat, &group->keyboard);
	}
	return true;
}

void fw_default_keyboard_finish(struct fw_server *server) {
	if (server->default_keyboard == NULL) {
		return;
	}
	wlr_keyboard_group_destroy(server->default_keyboard);
	server->default_keyboard = NULL;
}

void fw_default_keyboard_restore(
		struct fw_server *server, struct wlr_keyboard *leaving) {
	struct wlr_keyboard *current = wlr_seat_get_keyboard(server->seat);
	if (server->default_keyboard == NULL ||
			(current != NULL && current != leaving)) {
		return;
	}
	/*
	 * The seat keeps the keymap the leaving keyboard had. A client maps
	 * the keys it got by the keymap in force when it reads them: Xwayland's
	 * X clients ask the X server for it afresh after every change, and a
	 * virtual keyboard that types a line and goes at once (wtype) would
	 * otherwise have its keys read with the default keymap, one the keys
	 * were not typed with.
	 */
	struct wlr_keyboard *keyboard = &server->default_keyboard->keyboard;
	if (leaving != NULL && leaving->keymap != NULL &&
			leaving->keymap != keyboard->keymap) {
		wlr_keyboard_set_keymap(keyboard, leaving->keymap);
	}
	wlr_seat_set_keyboard(server->seat, keyboard);
}
