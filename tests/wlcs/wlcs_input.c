/*
 * wlcs's pointers and touchscreens, as input devices of fairway's: a
 * wlr_pointer or wlr_touch made here is added to the seat and the cursor
 * the way a backend's device is (fw_seat_add_device), and wlcs's calls
 * become the events such a device emits. So they travel fairway's whole
 * input path: wlr_cursor, the seat's focus, and the scheduler's input
 * boost. The headless backend makes no input devices of its own.
 */
#include "compositor/input/seat.h"
#include "compositor/server.h"
#include "tests/wlcs/wlcs_module.h"
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/interfaces/wlr_pointer.h>
#include <wlr/interfaces/wlr_touch.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/util/box.h>

/* The wlroots side, freed by input_destroy. */
struct fw_wlcs_input {
	enum wlr_input_device_type type;
	union {
		struct wlr_pointer pointer;
		struct wlr_touch touch;
	};
};

/* What wlcs holds; it may outlive the server and its wlroots side. */
struct fw_wlcs_device {
	WlcsPointer pointer;
	WlcsTouch touch;
	struct fw_wlcs *wlcs;
	struct wl_list link; /* fw_wlcs.devices */
	struct fw_wlcs_input *input; /* NULL once the server went */
	int32_t touch_id;
};

static const struct wlr_pointer_impl pointer_impl = {
		.name = "wlcs-pointer",
};

static const struct wlr_touch_impl touch_impl = {
		.name = "wlcs-touch",
};

/* The device's destroy signal tells fairway it went, then it is freed. */
static void input_destroy(struct fw_wlcs_input *input) {
	if (input->type == WLR_INPUT_DEVICE_POINTER) {
		wlr_pointer_finish(&input->pointer);
	} else {
		wlr_touch_finish(&input->touch);
	}
	free(input);
}

static uint32_t now_msec(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

/* Layout coordinates as a fraction of the layout, as absolute devices
 * report them. */
static void to_unit(
		struct fw_server *server, double lx, double ly, double *x, double *y) {
	struct wlr_box box;
	wlr_output_layout_get_box(server->output_layout, NULL, &box);
	*x = box.width > 0 ? (lx - box.x) / box.width : 0;
	*y = box.height > 0 ? (ly - box.y) / box.height : 0;
	while (box.width > 0 && *x * box.width + box.x < lx) {
		*x = nextafter(*x, 2.0);
	}
	while (box.height > 0 && *y * box.height + box.y < ly) {
		*y = nextafter(*y, 2.0);
	}
}

struct input_call {
	struct fw_wlcs_device *device;
	enum wlr_input_device_type type;
	int kind;
	double x, y;
	uint32_t button;
	bool pressed;
};

enum {
	CALL_ADD,
	CALL_REMOVE,
	CALL_MOTION_ABSOLUTE,
	CALL_MOTION_RELATIVE,
	CALL_BUTTON,
	CALL_TOUCH_DOWN,
	CALL_TOUCH_MOTION,
	CALL_TOUCH_UP,
};

static void add_on_server(struct fw_wlcs *wlcs, struct input_call *call) {
	struct fw_wlcs_input *input = calloc(1, sizeof(*input));
	if (input == NULL) {
		return;
	}
	input->type = call->type;
	struct wlr_input_device *base;
	if (input->type == WLR_INPUT_DEVICE_POINTER) {
		wlr_pointer_init(&input->pointer, &pointer_impl, pointer_impl.name);
		base = &input->pointer.base;
	} else {
		wlr_touch_init(&input->touch, &touch_impl, touch_impl.name);
		base = &input->touch.base;
	}
	call->device->input = input;
	fw_seat_add_device(wlcs->server, base);
}

static void pointer_event(struct fw_wlcs *wlcs, struct input_call *call) {
	struct fw_wlcs_input *input = call->device->input;
	struct wlr_pointer *pointer = &input->pointer;
	uint32_t time = now_msec();
	switch (call->kind) {
	case CALL_MOTION_ABSOLUTE: {
		struct wlr_pointer_motion_absolute_event event = {
				.pointer = pointer,
				.time_msec = time,
		};
		to_unit(wlcs->server, call->x, call->y, &event.x, &event.y);
		wl_signal_emit_mutable(&pointer->events.motion_absolute, &event);
		break;
	}
	case CALL_MOTION_RELATIVE: {
		struct wlr_pointer_motion_event event = {
				.pointer = pointer,
				.time_msec = time,
				.delta_x = call->x,
				.delta_y = call->y,
				.unaccel_dx = call->x,
				.unaccel_dy = call->y,
		};
		wl_signal_emit_mutable(&pointer->events.motion, &event);
		break;
	}
	case CALL_BUTTON: {
		struct wlr_pointer_button_event event = {
				.pointer = pointer,
				.time_msec = time,
				.button = call->button,
				.state = call->pressed ? WL_POINTER_BUTTON_STATE_PRESSED
									   : WL_POINTER_BUTTON_STATE_RELEASED,
		};
		wl_signal_emit_mutable(&pointer->events.button, &event);
		break;
	}
	}
	wl_signal_emit_mutable(&pointer->events.frame, pointer);
}

static void touch_event(struct fw_wlcs *wlcs, struct input_call *call) {
	struct fw_wlcs_input *input = call->device->input;
	struct wlr_touch *touch = &input->touch;
	uint32_t time = now_msec();
	int32_t id = call->device->touch_id;
	double x, y;
	to_unit(wlcs->server, call->x, call->y, &x, &y);
	switch (call->kind) {
	case CALL_TOUCH_DOWN: {
		struct wlr_touch_down_event event = {
				.touch = touch,
				.time_msec = time,
				.touch_id = id,
				.x = x,
				.y = y,
		};
		wl_signal_emit_mutable(&touch->events.down, &event);
		break;
	}
	case CALL_TOUCH_MOTION: {
		struct wlr_touch_motion_event event = {
				.touch = touch,
				.time_msec = time,
				.touch_id = id,
				.x = x,
				.y = y,
		};
		wl_signal_emit_mutable(&touch->events.motion, &event);
		break;
	}
	case CALL_TOUCH_UP: {
		struct wlr_touch_up_event event = {
				.touch = touch,
				.time_msec = time,
				.touch_id = id,
		};
		wl_signal_emit_mutable(&touch->events.up, &event);
		break;
	}
	}
	wl_signal_emit_mutable(&touch->events.frame, NULL);
}

static void on_server(struct fw_wlcs *wlcs, void *data) {
	struct input_call *call = data;
	struct fw_wlcs_device *device = call->device;
	if (call->kind == CALL_ADD) {
		add_on_server(wlcs, call);
		return;
	}
	if (device->input == NULL) {
		return;
	}
	switch (call->kind) {
	case CALL_REMOVE:
		input_destroy(device->input);
		device->input = NULL;
		break;
	case CALL_MOTION_ABSOLUTE:
	case CALL_MOTION_RELATIVE:
	case CALL_BUTTON:
		pointer_event(wlcs, call);
		break;
	default:
		touch_event(wlcs, call);
		break;
	}
}

static void call_device(
		struct fw_wlcs_device *device, int kind, double x, double y) {
	struct input_call call = {
			.device = device,
			.kind = kind,
			.x = x,
			.y = y,
	};
	fw_wlcs_call(device->wlcs, on_server, &call);
}

static struct fw_wlcs_device *from_pointer(WlcsPointer *pointer) {
	return wl_container_of(pointer, (struct fw_wlcs_device *)NULL, pointer);
}

static struct fw_wlcs_device *from_touch(WlcsTouch *touch) {
	return wl_container_of(touch, (struct fw_wlcs_device *)NULL, touch);
}

static void pointer_move_absolute(
		WlcsPointer *pointer, wl_fixed_t x, wl_fixed_t y) {
	call_device(from_pointer(pointer), CALL_MOTION_ABSOLUTE,
			wl_fixed_to_double(x), wl_fixed_to_double(y));
}

static void pointer_move_relative(
		WlcsPointer *pointer, wl_fixed_t dx, wl_fixed_t dy) {
	call_device(from_pointer(pointer), CALL_MOTION_RELATIVE,
			wl_fixed_to_double(dx), wl_fixed_to_double(dy));
}

static void pointer_button(WlcsPointer *pointer, int button, bool pressed) {
	struct input_call call = {
			.device = from_pointer(pointer),
			.kind = CALL_BUTTON,
			.button = (uint32_t)button,
			.pressed = pressed,
	};
	fw_wlcs_call(call.device->wlcs, on_server, &call);
}

static void pointer_button_down(WlcsPointer *pointer, int button) {
	pointer_button(pointer, button, true);
}

static void pointer_button_up(WlcsPointer *pointer, int button) {
	pointer_button(pointer, button, false);
}

static void destroy_device(struct fw_wlcs_device *device) {
	if (device->wlcs != NULL) {
		call_device(device, CALL_REMOVE, 0, 0);
	}
	wl_list_remove(&device->link);
	free(device);
}

static void pointer_destroy_handle(WlcsPointer *pointer) {
	destroy_device(from_pointer(pointer));
}

/*
 * wlcs hands the touch calls its test's whole pixel coordinates, not the
 * wl_fixed_t values the header names (wlcs::Touch::down_at passes its ints
 * straight through), so they are read as pixels.
 */
static void touch_down(WlcsTouch *touch, wl_fixed_t x, wl_fixed_t y) {
	call_device(from_touch(touch), CALL_TOUCH_DOWN, x, y);
}

static void touch_move(WlcsTouch *touch, wl_fixed_t x, wl_fixed_t y) {
	call_device(from_touch(touch), CALL_TOUCH_MOTION, x, y);
}

static void touch_up(WlcsTouch *touch) {
	call_device(from_touch(touch), CALL_TOUCH_UP, 0, 0);
}

static void touch_destroy_handle(WlcsTouch *touch) {
	destroy_device(from_touch(touch));
}

static struct fw_wlcs_device *create_device(
		struct fw_wlcs *wlcs, enum wlr_input_device_type type) {
	struct fw_wlcs_device *device = calloc(1, sizeof(*device));
	if (device == NULL) {
		return NULL;
	}
	device->wlcs = wlcs;
	device->touch_id = (int32_t)wlcs->next_touch_id++;
	device->pointer = (WlcsPointer){
			.version = WLCS_POINTER_VERSION,
			.move_absolute = pointer_move_absolute,
			.move_relative = pointer_move_relative,
			.button_up = pointer_button_up,
			.button_down = pointer_button_down,
			.destroy = pointer_destroy_handle,
	};
	device->touch = (WlcsTouch){
			.version = WLCS_TOUCH_VERSION,
			.touch_down = touch_down,
			.touch_move = touch_move,
			.touch_up = touch_up,
			.destroy = touch_destroy_handle,
	};
	struct input_call call = {
			.device = device,
			.kind = CALL_ADD,
			.type = type,
	};
	fw_wlcs_call(wlcs, on_server, &call);
	if (device->input == NULL) {
		free(device);
		return NULL;
	}
	wl_list_insert(&wlcs->devices, &device->link);
	return device;
}

WlcsPointer *fw_wlcs_create_pointer(struct fw_wlcs *wlcs) {
	struct fw_wlcs_device *device =
			create_device(wlcs, WLR_INPUT_DEVICE_POINTER);
	return device != NULL ? &device->pointer : NULL;
}

WlcsTouch *fw_wlcs_create_touch(struct fw_wlcs *wlcs) {
	struct fw_wlcs_device *device = create_device(wlcs, WLR_INPUT_DEVICE_TOUCH);
	return device != NULL ? &device->touch : NULL;
}

void fw_wlcs_input_finish(struct fw_wlcs *wlcs) {
	struct fw_wlcs_device *device;
	wl_list_for_each(device, &wlcs->devices, link) {
		if (device->input != NULL) {
			input_destroy(device->input);
			device->input = NULL;
		}
	}
}

void fw_wlcs_input_release(struct fw_wlcs *wlcs) {
	struct fw_wlcs_device *device, *tmp;
	wl_list_for_each_safe(device, tmp, &wlcs->devices, link) {
		device->wlcs = NULL;
		wl_list_remove(&device->link);
		wl_list_init(&device->link);
	}
}
