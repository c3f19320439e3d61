/*
 * fw-test-client's seat: each pointer and keyboard event as a line on
 * stdout, and a click that starts an interactive move or resize.
 */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "fw-test-client.h"
#include "xdg-shell-client-protocol.h"

static const char *surface_name(
		struct test_client *client, struct wl_surface *surface) {
	if (surface != NULL && surface == client->popup.surface) {
		return "popup-";
	}
	return "";
}

static void handle_pointer_enter(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
		wl_fixed_t y) {
	struct test_client *client = data;
	client->pointer_surface = surface;
	printf("%spointer-enter %d %d\n", surface_name(client, surface),
			wl_fixed_to_int(x), wl_fixed_to_int(y));
}

static void handle_pointer_leave(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface) {
	struct test_client *client = data;
	printf("%spointer-leave\n", surface_name(client, surface));
	client->pointer_surface = NULL;
}

static void handle_pointer_motion(void *data, struct wl_pointer *pointer,
		uint32_t time, wl_fixed_t x, wl_fixed_t y) {
	struct test_client *client = data;
	printf("%spointer-motion %d %d\n",
			surface_name(client, client->pointer_surface), wl_fixed_to_int(x),
			wl_fixed_to_int(y));
}

static void handle_pointer_button(void *data, struct wl_pointer *pointer,
		uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
	struct test_client *client = data;
	client->input_serial = serial;
	bool pressed = state == WL_POINTER_BUTTON_STATE_PRESSED;
	printf("%sbutton %u %s\n", surface_name(client, client->pointer_surface),
			button, pressed ? "pressed" : "released");
	if (!pressed || button != BTN_LEFT ||
			client->pointer_surface != client->surface) {
		return;
	}
	const char *what = NULL;
	if (client->move_on_click) {
		xdg_toplevel_move(client->toplevel, client->seat, serial);
		what = "move";
	} else if (client->resize_on_click) {
		xdg_toplevel_resize(client->toplevel, client->seat, serial,
				XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT);
		what = "resize";
	}
	if (what != NULL) {
		report_when_done(client, what);
	}
}

static void handle_pointer_axis(void *data, struct wl_pointer *pointer,
		uint32_t time, uint32_t axis, wl_fixed_t value) {
	printf("axis %u %d\n", axis, wl_fixed_to_int(value));
}

static void handle_pointer_frame(void *data, struct wl_pointer *pointer) {
	// Each event is printed as it comes; frames group nothing here.
}

static void handle_pointer_axis_source(
		void *data, struct wl_pointer *pointer, uint32_t source) {
	// Scroll details do not matter to the tests.
}

static void handle_pointer_axis_stop(
		void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis) {
	// Scroll details do not matter to the tests.
}

static void handle_pointer_axis_discrete(
		void *data, struct wl_pointer *pointer, uint32_t axis, int32_t steps) {
	// Scroll details do not matter to the tests.
}

static const struct wl_pointer_listener pointer_listener = {
		.enter = handle_pointer_enter,
		.leave = handle_pointer_leave,
		.motion = handle_pointer_motion,
		.button = handle_pointer_button,
		.axis = handle_pointer_axis,
		.frame = handle_pointer_frame,
		.axis_source = handle_pointer_axis_source,
		.axis_stop = handle_pointer_axis_stop,
		.axis_discrete = handle_pointer_axis_discrete,
};

/* Prints "keymap NAME", NAME being the keymap's first group's name
 * ("English (US)"): which layout the compositor configured. Raw key codes
 * are enough for the tests otherwise. */
static void handle_keyboard_keymap(void *data, struct wl_keyboard *keyboard,
		uint32_t format, int32_t fd, uint32_t size) {
	char *text = size > 0 ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0)
						  : MAP_FAILED;
	close(fd);
	if (text == MAP_FAILED) {
		printf("keymap ?\n");
		return;
	}
	const char *key = "name[Group1]=\"";
	const char *name = memmem(text, size, key, strlen(key));
	const char *end = name != NULL
			? memchr(name + strlen(key), '"',
					  size - (size_t)(name - text) - strlen(key))
			: NULL;
	if (end != NULL) {
		name += strlen(key);
		printf("keymap %.*s\n", (int)(end - name), name);
	} else {
		printf("keymap ?\n");
	}
	munmap(text, size);
}

static void handle_keyboard_enter(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface, struct wl_array *keys) {
	struct test_client *client = data;
	client->input_serial = serial;
	printf("%skeyboard-enter\n", surface_name(client, surface));
}

static void handle_keyboard_leave(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface) {
	struct test_client *client = data;
	printf("%skeyboard-leave\n", surface_name(client, surface));
}

static void handle_keyboard_key(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t time, uint32_t key, uint32_t state) {
	struct test_client *client = data;
	client->input_serial = serial;
	printf("key %u %s\n", key,
			state == WL_KEYBOARD_KEY_STATE_PRESSED ? "pressed" : "released");
}

static void handle_keyboard_modifiers(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t depressed, uint32_t latched, uint32_t locked,
		uint32_t group) {
	// Modifier state does not matter to the tests.
}

static void handle_keyboard_repeat_info(
		void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
	printf("repeat %d %d\n", rate, delay);
}

static const struct wl_keyboard_listener keyboard_listener = {
		.keymap = handle_keyboard_keymap,
		.enter = handle_keyboard_enter,
		.leave = handle_keyboard_leave,
		.key = handle_keyboard_key,
		.modifiers = handle_keyboard_modifiers,
		.repeat_info = handle_keyboard_repeat_info,
};

static void handle_seat_capabilities(
		void *data, struct wl_seat *seat, uint32_t caps) {
	struct test_client *client = data;
	bool has_pointer = caps & WL_SEAT_CAPABILITY_POINTER;
	bool has_keyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD;
	if (has_pointer && client->pointer == NULL) {
		client->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(client->pointer, &pointer_listener, client);
	} else if (!has_pointer && client->pointer != NULL) {
		wl_pointer_release(client->pointer);
		client->pointer = NULL;
	}
	if (has_keyboard && client->keyboard == NULL) {
		client->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(client->keyboard, &keyboard_listener, client);
	} else if (!has_keyboard && client->keyboard != NULL) {
		wl_keyboard_release(client->keyboard);
		client->keyboard = NULL;
	}
}

static void handle_seat_name(
		void *data, struct wl_seat *seat, const char *name) {
	// The tests use whatever single seat there is.
}

const struct wl_seat_listener fw_test_client_seat_listener = {
		.capabilities = handle_seat_capabilities,
		.name = handle_seat_name,
};
