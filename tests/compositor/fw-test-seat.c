#include "fw-test-seat.h"
#include <stdio.h>
#include <unistd.h>

static void handle_pointer_enter(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
		wl_fixed_t y) {
	printf("pointer-enter %d %d\n", wl_fixed_to_int(x), wl_fixed_to_int(y));
}

static void handle_pointer_leave(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface) {
	printf("pointer-leave\n");
}

static void handle_pointer_motion(void *data, struct wl_pointer *pointer,
		uint32_t time, wl_fixed_t x, wl_fixed_t y) {
	// Enter and buttons are what the tests look for.
}

static void handle_pointer_button(void *data, struct wl_pointer *pointer,
		uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
	printf("button %u %s\n", button,
			state == WL_POINTER_BUTTON_STATE_PRESSED ? "pressed" : "released");
}

static void handle_pointer_axis(void *data, struct wl_pointer *pointer,
		uint32_t time, uint32_t axis, wl_fixed_t value) {
	// Scrolling does not matter to the tests.
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

static void handle_keyboard_keymap(void *data, struct wl_keyboard *keyboard,
		uint32_t format, int32_t fd, uint32_t size) {
	printf("keymap %u\n", format);
	close(fd);
}

static void handle_keyboard_enter(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface, struct wl_array *keys) {
	printf("keyboard-enter\n");
}

static void handle_keyboard_leave(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface) {
	printf("keyboard-leave\n");
}

static void handle_keyboard_key(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t time, uint32_t key, uint32_t state) {
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
	// Key repeat does not matter to the tests.
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
		void *data, struct wl_seat *wl_seat, uint32_t caps) {
	struct fw_test_seat *seat = data;
	if ((caps & WL_SEAT_CAPABILITY_POINTER) && seat->pointer == NULL) {
		seat->pointer = wl_seat_get_pointer(wl_seat);
		wl_pointer_add_listener(seat->pointer, &pointer_listener, seat);
	}
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && seat->keyboard == NULL) {
		seat->keyboard = wl_seat_get_keyboard(wl_seat);
		wl_keyboard_add_listener(seat->keyboard, &keyboard_listener, seat);
	}
}

static void handle_seat_name(
		void *data, struct wl_seat *wl_seat, const char *name) {
	// The tests use whatever single seat there is.
}

static const struct wl_seat_listener seat_listener = {
		.capabilities = handle_seat_capabilities,
		.name = handle_seat_name,
};

void fw_test_seat_bind(struct fw_test_seat *seat, struct wl_registry *registry,
		uint32_t name, uint32_t version) {
	if (seat->seat != NULL) {
		return;
	}
	// Version 5 brings the pointer's frame and axis details.
	seat->seat = wl_registry_bind(
			registry, name, &wl_seat_interface, version < 5 ? version : 5);
	wl_seat_add_listener(seat->seat, &seat_listener, seat);
}

// Released where the version allows, so that the compositor lets go too.
void fw_test_seat_finish(struct fw_test_seat *seat) {
	if (seat->keyboard != NULL) {
		if (wl_keyboard_get_version(seat->keyboard) >=
				WL_KEYBOARD_RELEASE_SINCE_VERSION) {
			wl_keyboard_release(seat->keyboard);
		} else {
			wl_keyboard_destroy(seat->keyboard);
		}
	}
	if (seat->pointer != NULL) {
		if (wl_pointer_get_version(seat->pointer) >=
				WL_POINTER_RELEASE_SINCE_VERSION) {
			wl_pointer_release(seat->pointer);
		} else {
			wl_pointer_destroy(seat->pointer);
		}
	}
	if (seat->seat != NULL) {
		if (wl_seat_get_version(seat->seat) >= WL_SEAT_RELEASE_SINCE_VERSION) {
			wl_seat_release(seat->seat);
		} else {
			wl_seat_destroy(seat->seat);
		}
	}
}
