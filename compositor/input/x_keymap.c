#include "compositor/input/x_keymap.h"
/*
 * The keymap virtual keyboards type into X clients with.
 *
 * An X client does not get a key's symbol with the key: it looks the
 * keycode up in the X server's keymap when it reads the key, and after a
 * keymap change it asks for the keymap of that moment, not the one the key
 * was pressed under. Each virtual keyboard (wtype) brings a keymap of its
 * own, every one of them putting its symbols on the same few keycodes, so
 * a client still reading one keyboard's keys after the next one's keymap
 * came read them as other keys: "hello" typed as five Returns.
 *
 * So while an X window has the focus, virtual keyboards type through one
 * keymap of fairway's that only grows: each symbol they type gets a
 * keycode of its own, from the top of the range down (where a virtual
 * keyboard's own keymaps, which start at the bottom, put nothing), and
 * keeps it. A late lookup then finds every key as it was typed, and a new
 * symbol's keymap reaches Xwayland before its key does.
 *
 * Every change of keymap is a chance for a client to miss it: xterm, sent
 * a key right behind the third of several changes in a row, now and then
 * looked it up as no symbol at all. So the keymap changes as seldom as it
 * can: it starts with what is typed most (ASCII and the editing keys), and
 * a symbol it lacks brings in every symbol of its keyboard's keymap at
 * once, where they fit (wtype's keymap holds just what it is about to
 * type).
 */
#include "compositor/server.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_keyboard_group.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>
#include <xkbcommon/xkbcommon.h>

/* X keycodes; fairway's symbols go from the top down to the bottom. */
#define X_KEYCODE_MIN 9
#define X_KEYCODE_MAX 255

struct fw_x_keymap {
	/* A keyboard with no device, for the seat to send its keymap. */
	struct wlr_keyboard_group *group;
	xkb_keysym_t syms[X_KEYCODE_MAX + 1]; /* by X keycode, 0: free */
	int lowest; /* the last keycode given out */
	/* What each pressed key of a virtual keyboard went out as. */
	uint8_t pressed[X_KEYCODE_MAX + 1];
	struct xkb_context *context;
};

bool fw_x_keymap_applies(
		struct fw_server *server, struct wlr_keyboard *keyboard) {
	struct wlr_surface *focused = server->seat->keyboard_state.focused_surface;
	return server->x_keymap != NULL && focused != NULL &&
			wlr_input_device_get_virtual_keyboard(&keyboard->base) != NULL &&
			wlr_xwayland_surface_try_from_wlr_surface(focused) != NULL;
}

/* Appends to a growing string; false when out of memory. */
static bool append(char **buf, size_t *len, size_t *size, const char *text) {
	size_t n = strlen(text);
	if (*len + n + 1 > *size) {
		size_t new_size = (*size + n + 1) * 2;
		char *grown = realloc(*buf, new_size);
		if (grown == NULL) {
			return false;
		}
		*buf = grown;
		*size = new_size;
	}
	memcpy(*buf + *len, text, n + 1);
	*len += n;
	return true;
}

static bool compile(struct fw_x_keymap *xk) {
	char *buf = NULL;
	size_t len = 0, size = 0;
	char line[128];
	bool ok = append(&buf, &len, &size,
			"xkb_keymap {\nxkb_keycodes \"fairway\" {\n"
			"minimum = 8;\nmaximum = 255;\n");
	for (int code = xk->lowest; ok && code <= X_KEYCODE_MAX; code++) {
		snprintf(line, sizeof(line), "<K%d> = %d;\n", code, code);
		ok = append(&buf, &len, &size, line);
	}
	ok = ok &&
			append(&buf, &len, &size,
					"};\nxkb_types \"fairway\" { include \"complete\" };\n"
					"xkb_compat \"fairway\" { include \"complete\" };\n"
					"xkb_symbols \"fairway\" {\n");
	for (int code = xk->lowest; ok && code <= X_KEYCODE_MAX; code++) {
		char name[64];
		if (xkb_keysym_get_name(xk->syms[code], name, sizeof(name)) < 0) {
			snprintf(name, sizeof(name), "NoSymbol");
		}
		snprintf(line, sizeof(line), "key <K%d> { [ %s ] };\n", code, name);
		ok = append(&buf, &len, &size, line);
	}
	ok = ok && append(&buf, &len, &size, "};\n};\n");
	struct xkb_keymap *keymap = ok
			? xkb_keymap_new_from_string(xk->context, buf,
					  XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
			: NULL;
	free(buf);
	if (keymap == NULL) {
		wlr_log(WLR_ERROR, "Cannot compile the X keymap of virtual keyboards");
		return false;
	}
	/* The seat, if it has this keyboard, sends the keymap on. */
	ok = wlr_keyboard_set_keymap(&xk->group->keyboard, keymap);
	xkb_keymap_unref(keymap);
	return ok;
}

/* The X keycode sym has; 0: none yet. */
static int find(const struct fw_x_keymap *xk, xkb_keysym_t sym) {
	for (int code = xk->lowest; code <= X_KEYCODE_MAX; code++) {
		if (xk->syms[code] == sym) {
			return code;
		}
	}
	return 0;
}

/* Gives sym a keycode if it has none and there is room; not compiled. */
static void add(struct fw_x_keymap *xk, xkb_keysym_t sym) {
	if (sym != XKB_KEY_NoSymbol && xk->lowest > X_KEYCODE_MIN &&
			find(xk, sym) == 0) {
		xk->syms[--xk->lowest] = sym;
	}
}

/* Keys typed often besides ASCII's, in the keymap from the start. */
static const xkb_keysym_t common[] = {
		XKB_KEY_Return,
		XKB_KEY_Tab,
		XKB_KEY_BackSpace,
		XKB_KEY_Escape,
		XKB_KEY_Delete,
		XKB_KEY_Left,
		XKB_KEY_Right,
		XKB_KEY_Up,
		XKB_KEY_Down,
		XKB_KEY_Home,
		XKB_KEY_End,
		XKB_KEY_Page_Up,
		XKB_KEY_Page_Down,
		XKB_KEY_Insert,
};

/* Empty but for what is typed most. */
static void seed(struct fw_x_keymap *xk) {
	memset(xk->syms, 0, sizeof(xk->syms));
	xk->lowest = X_KEYCODE_MAX + 1;
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++) {
		add(xk, common[i]);
	}
	for (xkb_keysym_t sym = XKB_KEY_space; sym <= XKB_KEY_asciitilde; sym++) {
		add(xk, sym);
	}
}

/*
 * Gives each unshifted symbol of keymap that the X keymap lacks a keycode,
 * all of them or, where they do not all fit, none; not compiled.
 */
static void add_keymap(struct fw_x_keymap *xk, struct xkb_keymap *keymap) {
	xkb_keysym_t lacking[X_KEYCODE_MAX + 1];
	int count = 0, room = xk->lowest - X_KEYCODE_MIN;
	xkb_keycode_t max = xkb_keymap_max_keycode(keymap);
	for (xkb_keycode_t key = xkb_keymap_min_keycode(keymap); key <= max;
			key++) {
		const xkb_keysym_t *syms;
		if (xkb_keymap_key_get_syms_by_level(keymap, key, 0, 0, &syms) != 1 ||
				find(xk, syms[0]) != 0) {
			continue;
		}
		bool seen = false;
		for (int i = 0; i < count && !seen; i++) {
			seen = lacking[i] == syms[0];
		}
		if (seen) {
			continue;
		}
		if (count == room) {
			return;
		}
		lacking[count++] = syms[0];
	}
	for (int i = 0; i < count; i++) {
		add(xk, lacking[i]);
	}
}

/*
 * The X keycode of sym, typed on keyboard; given out and compiled in, with
 * the rest of keyboard's symbols where they fit, if it had none. 0: none.
 */
static int keycode_of(struct fw_x_keymap *xk, struct wlr_keyboard *keyboard,
		xkb_keysym_t sym) {
	int code = find(xk, sym);
	if (code != 0) {
		return code;
	}
	if (xk->lowest <= X_KEYCODE_MIN) {
		/* Full: start again, the one time keys may be read late wrongly. */
		seed(xk);
	}
	int saved_lowest = xk->lowest;
	add(xk, sym);
	if (keyboard->keymap != NULL) {
		add_keymap(xk, keyboard->keymap);
	}
	if (!compile(xk)) {
		while (xk->lowest < saved_lowest) {
			xk->syms[xk->lowest++] = 0;
		}
		return 0;
	}
	return find(xk, sym);
}

bool fw_x_keymap_notify_key(struct fw_server *server,
		struct wlr_keyboard *keyboard, uint32_t time_msec, uint32_t keycode,
		uint32_t state) {
	struct fw_x_keymap *xk = server->x_keymap;
	if (keycode + 8 > X_KEYCODE_MAX) {
		return false;
	}
	int code;
	if (state == WL_KEYBOARD_KEY_STATE_PRESSED) {
		if (keyboard->xkb_state == NULL) {
			return false;
		}
		xkb_keysym_t sym =
				xkb_state_key_get_one_sym(keyboard->xkb_state, keycode + 8);
		code = sym != XKB_KEY_NoSymbol ? keycode_of(xk, keyboard, sym) : 0;
		xk->pressed[keycode + 8] = (uint8_t)code;
	} else {
		code = xk->pressed[keycode + 8];
		xk->pressed[keycode + 8] = 0;
	}
	if (code == 0) {
		return false;
	}
	/* The keymap goes out before the key, if the seat had another. */
	wlr_seat_set_keyboard(server->seat, &xk->group->keyboard);
	wlr_seat_keyboard_notify_key(
			server->seat, time_msec, (uint32_t)code - 8, state);
	return true;
}

void fw_x_keymap_notify_modifiers(
		struct fw_server *server, struct wlr_keyboard *keyboard) {
	struct fw_x_keymap *xk = server->x_keymap;
	/*
	 * Every keymap has the eight real modifiers at the same bits: the
	 * virtual keyboard's mask means the same in ours.
	 */
	wlr_seat_set_keyboard(server->seat, &xk->group->keyboard);
	wlr_seat_keyboard_notify_modifiers(server->seat, &keyboard->modifiers);
}

struct fw_x_keymap *fw_x_keymap_create(void) {
	struct fw_x_keymap *xk = calloc(1, sizeof(*xk));
	if (xk == NULL) {
		return NULL;
	}
	seed(xk);
	xk->context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	xk->group = wlr_keyboard_group_create();
	/* A keymap from the start, if without keys: never none to send. */
	if (xk->context == NULL || xk->group == NULL || !compile(xk)) {
		fw_x_keymap_destroy(xk);
		return NULL;
	}
	return xk;
}

void fw_x_keymap_destroy(struct fw_x_keymap *xk) {
	if (xk == NULL) {
		return;
	}
	if (xk->group != NULL) {
		wlr_keyboard_group_destroy(xk->group);
	}
	xkb_context_unref(xk->context);
	free(xk);
}
