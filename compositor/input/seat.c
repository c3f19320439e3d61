#include "compositor/input/seat.h"
#include "compositor/input/default_keyboard.h"
#include "compositor/input/input_config.h"
#include "compositor/input/keyboard.h"
#include "compositor/input/virtual_pointer.h"
#include "compositor/input/x_keymap.h"
#include "compositor/listener.h"
#include "compositor/lock/lock.h"
#include "compositor/output/frame_schedule.h"
#include "compositor/sched/client.h"
#include "compositor/sched/ratings.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_cursor_shape_v1.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_primary_selection.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>

static void update_capabilities(struct fw_server *server) {
	/*
	 * Pointer and keyboard are always advertised: a virtual keyboard (wtype)
	 * types right after it appears, and a client that only then learned of
	 * the capability would lose the first keys while binding wl_keyboard.
	 */
	uint32_t caps = WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD;
	if (server->touch_devices > 0) {
		caps |= WL_SEAT_CAPABILITY_TOUCH;
	}
	wlr_seat_set_capabilities(server->seat, caps);
}

struct fw_touch_device {
	struct fw_server *server;
	struct wl_listener destroy;
};

static void handle_touch_destroy(struct wl_listener *listener, void *data) {
	struct fw_touch_device *touch = wl_container_of(listener, touch, destroy);
	touch->server->touch_devices--;
	wl_list_remove(&touch->destroy.link);
	update_capabilities(touch->server);
	free(touch);
}

void fw_seat_add_device(
		struct fw_server *server, struct wlr_input_device *device) {
	switch (device->type) {
	case WLR_INPUT_DEVICE_KEYBOARD:
		fw_keyboard_create(server, device);
		break;
	case WLR_INPUT_DEVICE_POINTER:
		wlr_cursor_attach_input_device(server->cursor, device);
		fw_input_config_add_pointer(server, device);
		break;
	case WLR_INPUT_DEVICE_TOUCH: {
		struct fw_touch_device *touch = calloc(1, sizeof(*touch));
		if (touch == NULL) {
			return;
		}
		touch->server = server;
		fw_listener_connect(
				&touch->destroy, &device->events.destroy, handle_touch_destroy);
		server->touch_devices++;
		wlr_cursor_attach_input_device(server->cursor, device);
		break;
	}
	default:
		wlr_log(WLR_DEBUG, "Ignoring input device %s", device->name);
		break;
	}
	update_capabilities(server);
}

void fw_seat_keyboard_removed(struct fw_server *server) {
	update_capabilities(server);
}

void fw_seat_note_input(struct fw_server *server, struct wl_client *client,
		struct wlr_surface *surface) {
	if (surface != NULL) {
		if (surface->resource == NULL) {
			return;
		}
		client = wl_resource_get_client(surface->resource);
	}
	fw_sched_note_input(server->sched, client);
	fw_frame_schedule_note_input(server->frame_schedule, client);
	if (surface == NULL && fw_client_is_xwayland(client)) {
		/* Which X client: the one whose window has the focus. */
		surface = server->seat->keyboard_state.focused_surface;
		if (surface == NULL || surface->resource == NULL ||
				wl_resource_get_client(surface->resource) != client) {
			surface = server->seat->pointer_state.focused_surface;
		}
	}
	fw_ratings_note_input(server->ratings, client, surface);
}

void fw_seat_focus_surface(
		struct fw_server *server, struct wlr_surface *surface) {
	struct wlr_seat *seat = server->seat;
	if (surface == NULL) {
		wlr_seat_keyboard_clear_focus(seat);
		return;
	}
	if (seat->keyboard_state.focused_surface == surface ||
			!fw_lock_input_allowed(server, surface)) {
		return;
	}
	fw_sched_note_window_event(server->sched, surface);
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(seat);
	if (keyboard != NULL) {
		wlr_seat_keyboard_notify_enter(seat, surface, keyboard->keycodes,
				keyboard->num_keycodes, &keyboard->modifiers);
	} else {
		wlr_seat_keyboard_notify_enter(seat, surface, NULL, 0, NULL);
	}
}

static void handle_new_input(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, new_input);
	fw_seat_add_device(server, data);
}

static void handle_new_virtual_keyboard(
		struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, new_virtual_keyboard);
	struct wlr_virtual_keyboard_v1 *keyboard = data;
	fw_seat_add_device(server, &keyboard->keyboard.base);
}

static void handle_new_virtual_pointer(
		struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, new_virtual_pointer);
	struct wlr_virtual_pointer_v1_new_pointer_event *event = data;
	struct wlr_pointer *pointer = &event->new_pointer->pointer;
	fw_virtual_pointer_add(server, pointer);
	if (event->suggested_output != NULL) {
		wlr_cursor_map_input_to_output(
				server->cursor, &pointer->base, event->suggested_output);
	}
}

static void handle_request_set_cursor(
		struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, request_set_cursor);
	struct wlr_seat_pointer_request_set_cursor_event *event = data;
	/* Only the client under the pointer may change its image. */
	if (event->seat_client == server->seat->pointer_state.focused_client) {
		wlr_cursor_set_surface(server->cursor, event->surface, event->hotspot_x,
				event->hotspot_y);
	}
}

/*
 * wp_cursor_shape_v1: as for a cursor surface, only the client under the
 * pointer, and with a serial the seat gave it. Tablet tools have no
 * cursor of fairway's.
 */
static void handle_request_set_shape(struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, request_set_shape);
	struct wlr_cursor_shape_manager_v1_request_set_shape_event *event = data;
	if (event->device_type != WLR_CURSOR_SHAPE_MANAGER_V1_DEVICE_TYPE_POINTER ||
			event->seat_client != server->seat->pointer_state.focused_client ||
			!wlr_seat_client_validate_event_serial(
					event->seat_client, event->serial)) {
		return;
	}
	wlr_cursor_set_xcursor(server->cursor, server->cursor_manager,
			wlr_cursor_shape_v1_name(event->shape));
}

static void handle_request_set_selection(
		struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, request_set_selection);
	struct wlr_seat_request_set_selection_event *event = data;
	wlr_seat_set_selection(server->seat, event->source, event->serial);
}

static void handle_request_set_primary_selection(
		struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, request_set_primary_selection);
	struct wlr_seat_request_set_primary_selection_event *event = data;
	wlr_seat_set_primary_selection(server->seat, event->source, event->serial);
}

static void handle_request_start_drag(
		struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, request_start_drag);
	struct wlr_seat_request_start_drag_event *event = data;
	if (wlr_seat_validate_pointer_grab_serial(
				server->seat, event->origin, event->serial)) {
		wlr_seat_start_pointer_drag(server->seat, event->drag, event->serial);
	} else {
		wlr_data_source_destroy(event->drag->source);
	}
}

bool fw_seat_init(struct fw_server *server) {
	server->seat = wlr_seat_create(server->display, "seat0");
	if (server->seat == NULL) {
		return false;
	}
	fw_listener_connect(&server->new_input, &server->backend->events.new_input,
			handle_new_input);

	server->virtual_keyboard =
			wlr_virtual_keyboard_manager_v1_create(server->display);
	server->virtual_pointer =
			wlr_virtual_pointer_manager_v1_create(server->display);
	if (server->virtual_keyboard == NULL || server->virtual_pointer == NULL) {
		return false;
	}
	fw_listener_connect(&server->new_virtual_keyboard,
			&server->virtual_keyboard->events.new_virtual_keyboard,
			handle_new_virtual_keyboard);
	fw_listener_connect(&server->new_virtual_pointer,
			&server->virtual_pointer->events.new_virtual_pointer,
			handle_new_virtual_pointer);

	fw_listener_connect(&server->request_set_cursor,
			&server->seat->events.request_set_cursor,
			handle_request_set_cursor);
	server->cursor_shape =
			wlr_cursor_shape_manager_v1_create(server->display, 1);
	if (server->cursor_shape == NULL) {
		return false;
	}
	fw_listener_connect(&server->request_set_shape,
			&server->cursor_shape->events.request_set_shape,
			handle_request_set_shape);
	fw_listener_connect(&server->request_set_selection,
			&server->seat->events.request_set_selection,
			handle_request_set_selection);
	fw_listener_connect(&server->request_set_primary_selection,
			&server->seat->events.request_set_primary_selection,
			handle_request_set_primary_selection);
	fw_listener_connect(&server->request_start_drag,
			&server->seat->events.request_start_drag,
			handle_request_start_drag);
	update_capabilities(server);
	/* Without it virtual keyboards type into X clients as before. */
	server->x_keymap = fw_x_keymap_create();
	return fw_default_keyboard_init(server);
}

void fw_seat_finish(struct fw_server *server) {
	if (server->seat == NULL) {
		return;
	}
	struct wl_listener *listeners[] = {
			&server->new_input,
			&server->new_virtual_keyboard,
			&server->new_virtual_pointer,
			&server->request_set_cursor,
			&server->request_set_shape,
			&server->request_set_selection,
			&server->request_set_primary_selection,
			&server->request_start_drag,
	};
	for (size_t i = 0; i < sizeof(listeners) / sizeof(listeners[0]); i++) {
		fw_listener_disconnect(listeners[i]);
	}
	fw_default_keyboard_finish(server);
	fw_x_keymap_destroy(server->x_keymap);
	server->x_keymap = NULL;
}
