#include "clients/common/pointer.h"

#include "clients/common/pump.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"

static void handle_enter(void *data, struct wl_pointer *wl_pointer,
		uint32_t serial, struct wl_surface *surface, wl_fixed_t sx,
		wl_fixed_t sy) {
	struct fw_pointer *pointer = data;
	if (pointer->surface == NULL || surface != pointer->surface) {
		return;
	}
	pointer->entered = true;
	wl_pointer_set_cursor(wl_pointer, serial, NULL, 0, 0);
	pointer->x = wl_fixed_to_double(sx);
	pointer->y = wl_fixed_to_double(sy);
	pointer->moved = true;
	pointer->position(pointer->data, sx, sy, 0, false);
}

static void handle_leave(void *data, struct wl_pointer *wl_pointer,
		uint32_t serial, struct wl_surface *surface) {
	struct fw_pointer *pointer = data;
	pointer->entered = false;
}

static void handle_motion(void *data, struct wl_pointer *wl_pointer,
		uint32_t time, wl_fixed_t sx, wl_fixed_t sy) {
	struct fw_pointer *pointer = data;
	if (pointer->entered) {
		pointer->x = wl_fixed_to_double(sx);
		pointer->y = wl_fixed_to_double(sy);
		pointer->moved = true;
		pointer->position(pointer->data, sx, sy, time, true);
	}
}

static void handle_button(void *data, struct wl_pointer *wl_pointer,
		uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
}

static void handle_axis(void *data, struct wl_pointer *wl_pointer,
		uint32_t time, uint32_t axis, wl_fixed_t value) {
}

static void handle_frame(void *data, struct wl_pointer *wl_pointer) {
}

static void handle_axis_source(
		void *data, struct wl_pointer *wl_pointer, uint32_t source) {
}

static void handle_axis_stop(void *data, struct wl_pointer *wl_pointer,
		uint32_t time, uint32_t axis) {
}

static void handle_axis_discrete(void *data, struct wl_pointer *wl_pointer,
		uint32_t axis, int32_t discrete) {
}

static const struct wl_pointer_listener pointer_listener = {
		.enter = handle_enter,
		.leave = handle_leave,
		.motion = handle_motion,
		.button = handle_button,
		.axis = handle_axis,
		.frame = handle_frame,
		.axis_source = handle_axis_source,
		.axis_stop = handle_axis_stop,
		.axis_discrete = handle_axis_discrete,
};

int fw_pointer_init(struct fw_pointer *pointer, struct fw_globals *globals,
		const char *prog, uint64_t deadline_ns) {
	while (!(globals->seat_caps & WL_SEAT_CAPABILITY_POINTER)) {
		if (fw_stop_requested() || fw_now_ns() >= deadline_ns) {
			return fw_globals_require(globals, prog, FW_NEED_POINTER);
		}
		if (fw_pump(globals->display, fw_ms_until(deadline_ns)) < 0) {
			return -1;
		}
	}
	pointer->pointer = wl_seat_get_pointer(globals->seat);
	if (pointer->pointer == NULL) {
		return -1;
	}
	wl_pointer_add_listener(pointer->pointer, &pointer_listener, pointer);
	return 0;
}

void fw_pointer_finish(struct fw_pointer *pointer) {
	if (pointer->pointer != NULL) {
		wl_pointer_release(pointer->pointer);
		pointer->pointer = NULL;
	}
}
