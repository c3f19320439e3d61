#include "compositor/input/cursor.h"
#include "compositor/input/grab.h"
#include "compositor/input/pointer_constraints.h"
#include "compositor/input/seat.h"
#include "compositor/input/virtual_pointer.h"
#include "compositor/listener.h"
#include "compositor/lock/idle.h"
#include "compositor/lock/lock.h"
#include "compositor/server.h"
#include "compositor/shell/layer_shell.h"
#include "compositor/shell/view.h"
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_relative_pointer_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_touch.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/edges.h>

static void note_activity(struct fw_server *server) {
	fw_idle_activity(server);
}

static void note_pointer_client(struct fw_server *server) {
	struct wlr_seat_client *client = server->seat->pointer_state.focused_client;
	if (client != NULL) {
		fw_seat_note_input(server, client->client, NULL);
	}
}

/*
 * fw_view_at, less what may not get input now (lock.c): while the session
 * is locked or input inhibited, other clients' windows are not there.
 */
static struct fw_view *input_target_at(struct fw_server *server, double lx,
		double ly, struct wlr_surface **surface, double *sx, double *sy) {
	struct fw_view *view = fw_view_at(server, lx, ly, surface, sx, sy);
	struct wlr_surface *target = *surface;
	if (target == NULL && view != NULL) {
		target = view->surface;
	}
	if (!fw_lock_input_allowed(server, target)) {
		*surface = NULL;
		return NULL;
	}
	return view;
}

/*
 * While a button is held the pointer stays with the surface it was pressed
 * on, as on any desktop: a drag that leaves it keeps reporting to it, in
 * its coordinates (wl_pointer's implicit grab). A drag-and-drop or another
 * seat grab decides for itself.
 */
static bool implicit_grab(struct fw_server *server) {
	struct wlr_seat *seat = server->seat;
	return seat->pointer_state.button_count > 0 &&
			seat->pointer_state.focused_surface != NULL &&
			!wlr_seat_pointer_has_grab(seat);
}

/*
 * The pointer's focus follows what is under it. Returns whether the pointer
 * is on a surface; *told whether its client heard of it (an enter, a leave
 * or a motion), which a frame must then close.
 */
static bool update_pointer_focus(
		struct fw_server *server, uint32_t time_msec, bool *told) {
	struct wlr_seat *seat = server->seat;
	struct wlr_surface *before = seat->pointer_state.focused_surface;
	wl_fixed_t before_x = wl_fixed_from_double(seat->pointer_state.sx);
	wl_fixed_t before_y = wl_fixed_from_double(seat->pointer_state.sy);
	*told = false;
	if (implicit_grab(server)) {
		wlr_seat_pointer_notify_motion(seat, time_msec,
				server->cursor->x - server->press_origin_x,
				server->cursor->y - server->press_origin_y);
	} else {
		double sx, sy;
		struct wlr_surface *surface = NULL;
		input_target_at(server, server->cursor->x, server->cursor->y, &surface,
				&sx, &sy);
		if (surface == NULL) {
			wlr_cursor_set_xcursor(
					server->cursor, server->cursor_manager, "default");
			wlr_seat_pointer_clear_focus(seat);
			*told = before != NULL;
			return false;
		}
		if (before != surface) {
			wlr_seat_pointer_notify_enter(seat, surface, sx, sy);
		} else {
			wlr_seat_pointer_notify_motion(seat, time_msec, sx, sy);
		}
	}
	*told = seat->pointer_state.focused_surface != before ||
			wl_fixed_from_double(seat->pointer_state.sx) != before_x ||
			wl_fixed_from_double(seat->pointer_state.sy) != before_y;
	return seat->pointer_state.focused_surface != NULL;
}

bool fw_cursor_update_focus(struct fw_server *server, uint32_t time_msec) {
	bool told;
	update_pointer_focus(server, time_msec, &told);
	return told;
}

void fw_cursor_refocus(struct fw_server *server, uint32_t time_msec) {
	bool told;
	if (update_pointer_focus(server, time_msec, &told)) {
		note_pointer_client(server);
	}
}

static void process_motion(struct fw_server *server, uint32_t time_msec) {
	note_activity(server);
	server->cursor_placed = true;
	if (fw_grab_motion(server)) {
		return;
	}
	fw_cursor_refocus(server, time_msec);
	/* The pointer may have come into a constraint's region. */
	fw_pointer_constraints_update(server);
}

/* A pointer constraint has its say on where the pointer goes next. */
static bool constrain(struct fw_server *server, double *dx, double *dy) {
	return fw_grab_active(server) ||
			fw_pointer_constraints_allow_motion(server, dx, dy);
}

static void handle_motion(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, cursor_motion);
	struct wlr_pointer_motion_event *event = data;
	if (fw_virtual_pointer_hold(
				server, event->pointer, FW_POINTER_MOTION, event)) {
		return;
	}
	if (server->relative_pointer != NULL) {
		wlr_relative_pointer_manager_v1_send_relative_motion(
				server->relative_pointer, server->seat,
				(uint64_t)event->time_msec * 1000, event->delta_x,
				event->delta_y, event->unaccel_dx, event->unaccel_dy);
	}
	double dx = event->delta_x, dy = event->delta_y;
	if (!constrain(server, &dx, &dy)) {
		/* Locked: the client hears only the relative motion. */
		note_activity(server);
		return;
	}
	wlr_cursor_move(server->cursor, &event->pointer->base, dx, dy);
	process_motion(server, event->time_msec);
}

static void handle_motion_absolute(struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, cursor_motion_absolute);
	struct wlr_pointer_motion_absolute_event *event = data;
	if (fw_virtual_pointer_hold(
				server, event->pointer, FW_POINTER_MOTION_ABSOLUTE, event)) {
		return;
	}
	struct wlr_input_device *device = &event->pointer->base;
	double lx, ly;
	wlr_cursor_absolute_to_layout_coords(
			server->cursor, device, event->x, event->y, &lx, &ly);
	double dx = lx - server->cursor->x, dy = ly - server->cursor->y;
	if (server->relative_pointer != NULL) {
		wlr_relative_pointer_manager_v1_send_relative_motion(
				server->relative_pointer, server->seat,
				(uint64_t)event->time_msec * 1000, dx, dy, dx, dy);
	}
	double allowed_x = dx, allowed_y = dy;
	if (!constrain(server, &allowed_x, &allowed_y)) {
		note_activity(server);
		return;
	}
	if (allowed_x == dx && allowed_y == dy) {
		wlr_cursor_warp_absolute(server->cursor, device, event->x, event->y);
	} else {
		wlr_cursor_move(server->cursor, device, allowed_x, allowed_y);
	}
	process_motion(server, event->time_msec);
}

static bool logo_held(struct fw_server *server) {
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(server->seat);
	return keyboard != NULL &&
			(wlr_keyboard_get_modifiers(keyboard) & WLR_MODIFIER_LOGO) != 0;
}

/* The frame edges closest to the cursor, for Super+right-drag resizing. */
static uint32_t nearest_edges(struct fw_server *server, struct fw_view *view) {
	int width, height;
	view->impl->get_size(view, &width, &height);
	uint32_t edges = 0;
	edges |= server->cursor->x < view->x + width / 2.0 ? WLR_EDGE_LEFT
													   : WLR_EDGE_RIGHT;
	edges |= server->cursor->y < view->y + height / 2.0 ? WLR_EDGE_TOP
														: WLR_EDGE_BOTTOM;
	return edges;
}

static void handle_button(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, cursor_button);
	struct wlr_pointer_button_event *event = data;
	if (fw_virtual_pointer_hold(
				server, event->pointer, FW_POINTER_BUTTON, event)) {
		return;
	}
	note_activity(server);

	if (event->state == WL_POINTER_BUTTON_STATE_RELEASED) {
		if (fw_grab_active(server)) {
			/* The press that started the grab was not sent; the release
			 * is not either. */
			fw_grab_end(server, NULL);
			fw_cursor_refocus(server, event->time_msec);
			return;
		}
		bool grabbed = implicit_grab(server);
		wlr_seat_pointer_notify_button(
				server->seat, event->time_msec, event->button, event->state);
		note_pointer_client(server);
		if (grabbed && !implicit_grab(server)) {
			/* The grab is over: the pointer goes to what is under it. */
			fw_cursor_refocus(server, event->time_msec);
		}
		return;
	}

	double sx, sy;
	struct wlr_surface *surface = NULL;
	struct fw_view *view = input_target_at(
			server, server->cursor->x, server->cursor->y, &surface, &sx, &sy);
	if (view != NULL) {
		fw_view_focus(view);
		if (logo_held(server) && event->button == BTN_LEFT) {
			fw_view_begin_interactive(view, FW_GRAB_MOVE, 0);
			return;
		}
		if (logo_held(server) && event->button == BTN_RIGHT) {
			fw_view_begin_interactive(
					view, FW_GRAB_RESIZE, nearest_edges(server, view));
			return;
		}
		if (surface == NULL && event->button == BTN_LEFT) {
			switch (fw_view_frame_part(
					view, server->cursor->x, server->cursor->y)) {
			case FW_FRAME_CLOSE:
				fw_view_close(view);
				break;
			case FW_FRAME_MAXIMIZE:
				fw_view_maximize(view, !view->maximized);
				break;
			case FW_FRAME_TITLE:
			case FW_FRAME_OTHER:
				/* A press on the title bar or border drags the window. */
				fw_view_begin_interactive(view, FW_GRAB_MOVE, 0);
				break;
			}
			return;
		}
	} else if (surface != NULL) {
		fw_layer_shell_focus_clicked(server, surface);
	}
	struct wlr_seat *seat = server->seat;
	if (seat->pointer_state.button_count == 0 &&
			seat->pointer_state.focused_surface != NULL) {
		/* The surface the implicit grab holds to, and where it is. */
		server->press_origin_x = server->cursor->x - seat->pointer_state.sx;
		server->press_origin_y = server->cursor->y - seat->pointer_state.sy;
	}
	wlr_seat_pointer_notify_button(
			seat, event->time_msec, event->button, event->state);
	note_pointer_client(server);
}

static void handle_axis(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, cursor_axis);
	struct wlr_pointer_axis_event *event = data;
	if (fw_virtual_pointer_hold(
				server, event->pointer, FW_POINTER_AXIS, event)) {
		return;
	}
	note_activity(server);
	wlr_seat_pointer_notify_axis(server->seat, event->time_msec,
			event->orientation, event->delta, event->delta_discrete,
			event->source, event->relative_direction);
	note_pointer_client(server);
}

static void handle_frame(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, cursor_frame);
	wlr_seat_pointer_notify_frame(server->seat);
}

/*
 * A touch point belongs to the surface it went down on until it goes up:
 * it is reported there, in that surface's coordinates, wherever it moves,
 * and it goes up when that surface goes.
 */
struct fw_touch_point {
	struct wl_list link; /* fw_server.touch_points */
	struct fw_server *server;
	int32_t id;
	double origin_x, origin_y; /* the surface's top-left, in layout */
	struct wl_listener surface_destroy;
};

static struct fw_touch_point *touch_point_find(
		struct fw_server *server, int32_t id) {
	struct fw_touch_point *point;
	wl_list_for_each(point, &server->touch_points, link) {
		if (point->id == id) {
			return point;
		}
	}
	return NULL;
}

static void touch_point_destroy(struct fw_touch_point *point) {
	if (point == NULL) {
		return;
	}
	wl_list_remove(&point->link);
	fw_listener_disconnect(&point->surface_destroy);
	free(point);
}

static uint32_t now_msec(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

static void handle_touch_surface_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_touch_point *point =
			wl_container_of(listener, point, surface_destroy);
	struct fw_server *server = point->server;
	int32_t id = point->id;
	touch_point_destroy(point);
	/* wlroots forgets the surface and keeps the point; its client is
	 * told the touch is over, as it would be when the finger lifts. */
	if (wlr_seat_touch_get_point(server->seat, id) != NULL) {
		wlr_seat_touch_notify_up(server->seat, now_msec(), id);
		wlr_seat_touch_notify_frame(server->seat);
	}
}

static void handle_touch_down(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, touch_down);
	struct wlr_touch_down_event *event = data;
	note_activity(server);
	double lx, ly, sx, sy;
	wlr_cursor_absolute_to_layout_coords(
			server->cursor, &event->touch->base, event->x, event->y, &lx, &ly);
	struct wlr_surface *surface = NULL;
	struct fw_view *view = input_target_at(server, lx, ly, &surface, &sx, &sy);
	if (view != NULL) {
		fw_view_focus(view);
	} else if (surface != NULL) {
		fw_layer_shell_focus_clicked(server, surface);
	}
	if (surface == NULL) {
		return;
	}
	touch_point_destroy(touch_point_find(server, event->touch_id));
	struct fw_touch_point *point = calloc(1, sizeof(*point));
	if (point != NULL) {
		point->server = server;
		point->id = event->touch_id;
		point->origin_x = lx - sx;
		point->origin_y = ly - sy;
		fw_listener_connect(&point->surface_destroy, &surface->events.destroy,
				handle_touch_surface_destroy);
		wl_list_insert(&server->touch_points, &point->link);
	}
	wlr_seat_touch_notify_down(
			server->seat, surface, event->time_msec, event->touch_id, sx, sy);
	fw_seat_note_input(server, NULL, surface);
}

static void handle_touch_up(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, touch_up);
	struct wlr_touch_up_event *event = data;
	touch_point_destroy(touch_point_find(server, event->touch_id));
	struct wlr_touch_point *point =
			wlr_seat_touch_get_point(server->seat, event->touch_id);
	if (point == NULL) {
		return;
	}
	if (point->surface != NULL) {
		fw_seat_note_input(server, NULL, point->surface);
	}
	wlr_seat_touch_notify_up(server->seat, event->time_msec, event->touch_id);
}

static void handle_touch_motion(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, touch_motion);
	struct wlr_touch_motion_event *event = data;
	note_activity(server);
	struct fw_touch_point *point = touch_point_find(server, event->touch_id);
	struct wlr_touch_point *seat_point =
			wlr_seat_touch_get_point(server->seat, event->touch_id);
	if (point == NULL || seat_point == NULL || seat_point->surface == NULL) {
		return;
	}
	double lx, ly;
	wlr_cursor_absolute_to_layout_coords(
			server->cursor, &event->touch->base, event->x, event->y, &lx, &ly);
	wlr_seat_touch_notify_motion(server->seat, event->time_msec,
			event->touch_id, lx - point->origin_x, ly - point->origin_y);
	fw_seat_note_input(server, NULL, seat_point->surface);
}

static void handle_touch_frame(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, touch_frame);
	wlr_seat_touch_notify_frame(server->seat);
}

void fw_cursor_play_event(struct fw_server *server, enum fw_pointer_event kind,
		const void *event) {
	/* The handlers take events as their signals give them. */
	void *data = (void *)event;
	switch (kind) {
	case FW_POINTER_MOTION:
		handle_motion(&server->cursor_motion, data);
		break;
	case FW_POINTER_MOTION_ABSOLUTE:
		handle_motion_absolute(&server->cursor_motion_absolute, data);
		break;
	case FW_POINTER_BUTTON:
		handle_button(&server->cursor_button, data);
		break;
	case FW_POINTER_AXIS:
		handle_axis(&server->cursor_axis, data);
		break;
	}
}

bool fw_cursor_init(struct fw_server *server) {
	wl_list_init(&server->touch_points);
	server->cursor = wlr_cursor_create();
	if (server->cursor == NULL) {
		return false;
	}
	wlr_cursor_attach_output_layout(server->cursor, server->output_layout);
	/* wlr_cursor loads the theme at each output's scale as it needs it. */
	server->cursor_manager = wlr_xcursor_manager_create(NULL, 24);
	if (server->cursor_manager == NULL) {
		return false;
	}

	fw_listener_connect(&server->cursor_motion, &server->cursor->events.motion,
			handle_motion);
	fw_listener_connect(&server->cursor_motion_absolute,
			&server->cursor->events.motion_absolute, handle_motion_absolute);
	fw_listener_connect(&server->cursor_button, &server->cursor->events.button,
			handle_button);
	fw_listener_connect(
			&server->cursor_axis, &server->cursor->events.axis, handle_axis);
	fw_listener_connect(
			&server->cursor_frame, &server->cursor->events.frame, handle_frame);
	fw_listener_connect(&server->touch_down, &server->cursor->events.touch_down,
			handle_touch_down);
	fw_listener_connect(&server->touch_up, &server->cursor->events.touch_up,
			handle_touch_up);
	fw_listener_connect(&server->touch_motion,
			&server->cursor->events.touch_motion, handle_touch_motion);
	fw_listener_connect(&server->touch_frame,
			&server->cursor->events.touch_frame, handle_touch_frame);
	return true;
}

void fw_cursor_finish(struct fw_server *server) {
	if (server->cursor == NULL) {
		return;
	}
	struct wl_listener *listeners[] = {
			&server->cursor_motion,
			&server->cursor_motion_absolute,
			&server->cursor_button,
			&server->cursor_axis,
			&server->cursor_frame,
			&server->touch_down,
			&server->touch_up,
			&server->touch_motion,
			&server->touch_frame,
	};
	for (size_t i = 0; i < sizeof(listeners) / sizeof(listeners[0]); i++) {
		fw_listener_disconnect(listeners[i]);
	}
	struct fw_touch_point *point, *tmp;
	wl_list_for_each_safe(point, tmp, &server->touch_points, link) {
		touch_point_destroy(point);
	}
	wlr_xcursor_manager_destroy(server->cursor_manager);
	server->cursor_manager = NULL;
	wlr_cursor_destroy(server->cursor);
	server->cursor = NULL;
}
