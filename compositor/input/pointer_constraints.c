/*
 * Pointer locks and confinements (pointer-constraints-unstable-v1), as games
 * and 3D viewers ask for them. A constraint is active while its surface has
 * both the keyboard (the user chose that window) and the pointer (it is
 * inside the constraint's region); it lets go the moment the keyboard
 * goes elsewhere. While active, a lock keeps the pointer where it is
 * (relative motion still reaches the client), and a confinement keeps it
 * inside the region.
 */
#include "compositor/input/pointer_constraints.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include <math.h>
#include <stdlib.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_pointer_constraints_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/region.h>

struct fw_pointer_constraint {
	struct fw_server *server;
	struct wlr_pointer_constraint_v1 *constraint;
	struct wl_listener set_region;
	struct wl_listener destroy;
};

struct fw_pointer_constraints {
	struct fw_server *server;
	struct wlr_pointer_constraints_v1 *manager;
	struct wlr_pointer_constraint_v1 *active;
	struct wl_listener new_constraint;
	struct wl_listener keyboard_focus;
	struct wl_listener pointer_focus;
};

static bool pointer_inside(
		struct wlr_seat *seat, struct wlr_pointer_constraint_v1 *constraint) {
	return seat->pointer_state.focused_surface == constraint->surface &&
			pixman_region32_contains_point(&constraint->region,
					(int)floor(seat->pointer_state.sx),
					(int)floor(seat->pointer_state.sy), NULL);
}

static void deactivate(struct fw_pointer_constraints *constraints) {
	struct wlr_pointer_constraint_v1 *constraint = constraints->active;
	if (constraint == NULL) {
		return;
	}
	constraints->active = NULL;
	struct fw_server *server = constraints->server;
	struct wlr_seat *seat = server->seat;
	if (constraint->type == WLR_POINTER_CONSTRAINT_V1_LOCKED &&
			(constraint->current.committed &
					WLR_POINTER_CONSTRAINT_V1_STATE_CURSOR_HINT) &&
			seat->pointer_state.focused_surface == constraint->surface) {
		/* Where the client drew its own cursor while locked. */
		double origin_x = server->cursor->x - seat->pointer_state.sx;
		double origin_y = server->cursor->y - seat->pointer_state.sy;
		wlr_cursor_warp(server->cursor, NULL,
				origin_x + constraint->current.cursor_hint.x,
				origin_y + constraint->current.cursor_hint.y);
	}
	/* A one-shot constraint is destroyed by this. */
	wlr_pointer_constraint_v1_send_deactivated(constraint);
}

void fw_pointer_constraints_update(struct fw_server *server) {
	struct fw_pointer_constraints *constraints = server->constraints;
	if (constraints == NULL) {
		return;
	}
	struct wlr_seat *seat = server->seat;
	struct wlr_surface *focused = seat->keyboard_state.focused_surface;
	struct wlr_pointer_constraint_v1 *wanted = focused != NULL
			? wlr_pointer_constraints_v1_constraint_for_surface(
					  constraints->manager, focused, seat)
			: NULL;
	if (wanted == constraints->active) {
		return;
	}
	deactivate(constraints);
	if (wanted != NULL && pointer_inside(seat, wanted)) {
		constraints->active = wanted;
		wlr_pointer_constraint_v1_send_activated(wanted);
	}
}

bool fw_pointer_constraints_allow_motion(
		struct fw_server *server, double *dx, double *dy) {
	struct fw_pointer_constraints *constraints = server->constraints;
	if (constraints == NULL || constraints->active == NULL) {
		return true;
	}
	struct wlr_pointer_constraint_v1 *constraint = constraints->active;
	if (constraint->type == WLR_POINTER_CONSTRAINT_V1_LOCKED) {
		return false;
	}
	struct wlr_seat *seat = server->seat;
	if (seat->pointer_state.focused_surface != constraint->surface) {
		return true;
	}
	double sx = seat->pointer_state.sx, sy = seat->pointer_state.sy;
	double to_x, to_y;
	if (!wlr_region_confine(&constraint->region, sx, sy, sx + *dx, sy + *dy,
				&to_x, &to_y)) {
		*dx = *dy = 0;
		return true;
	}
	*dx = to_x - sx;
	*dy = to_y - sy;
	return true;
}

static void handle_set_region(struct wl_listener *listener, void *data) {
	struct fw_pointer_constraint *fw =
			wl_container_of(listener, fw, set_region);
	fw_pointer_constraints_update(fw->server);
}

static void handle_constraint_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_pointer_constraint *fw = wl_container_of(listener, fw, destroy);
	struct fw_pointer_constraints *constraints = fw->server->constraints;
	if (constraints->active == fw->constraint) {
		/* Gone with its resource: nothing to tell it. */
		constraints->active = NULL;
	}
	fw_listener_disconnect(&fw->set_region);
	fw_listener_disconnect(&fw->destroy);
	free(fw);
}

static void handle_new_constraint(struct wl_listener *listener, void *data) {
	struct fw_pointer_constraints *constraints =
			wl_container_of(listener, constraints, new_constraint);
	struct wlr_pointer_constraint_v1 *constraint = data;
	struct fw_pointer_constraint *fw = calloc(1, sizeof(*fw));
	if (fw == NULL) {
		wl_resource_post_no_memory(constraint->resource);
		return;
	}
	fw->server = constraints->server;
	fw->constraint = constraint;
	fw_listener_connect(
			&fw->set_region, &constraint->events.set_region, handle_set_region);
	fw_listener_connect(&fw->destroy, &constraint->events.destroy,
			handle_constraint_destroy);
	fw_pointer_constraints_update(constraints->server);
}

static void handle_focus(struct wl_listener *listener, void *data) {
	struct fw_pointer_constraints *constraints =
			wl_container_of(listener, constraints, keyboard_focus);
	fw_pointer_constraints_update(constraints->server);
}

static void handle_pointer_focus(struct wl_listener *listener, void *data) {
	struct fw_pointer_constraints *constraints =
			wl_container_of(listener, constraints, pointer_focus);
	fw_pointer_constraints_update(constraints->server);
}

bool fw_pointer_constraints_init(struct fw_server *server) {
	struct fw_pointer_constraints *constraints =
			calloc(1, sizeof(*constraints));
	if (constraints == NULL) {
		return false;
	}
	constraints->server = server;
	constraints->manager = wlr_pointer_constraints_v1_create(server->display);
	if (constraints->manager == NULL) {
		free(constraints);
		return false;
	}
	fw_listener_connect(&constraints->new_constraint,
			&constraints->manager->events.new_constraint,
			handle_new_constraint);
	fw_listener_connect(&constraints->keyboard_focus,
			&server->seat->keyboard_state.events.focus_change, handle_focus);
	fw_listener_connect(&constraints->pointer_focus,
			&server->seat->pointer_state.events.focus_change,
			handle_pointer_focus);
	server->constraints = constraints;
	return true;
}

void fw_pointer_constraints_finish(struct fw_server *server) {
	struct fw_pointer_constraints *constraints = server->constraints;
	if (constraints == NULL) {
		return;
	}
	fw_listener_disconnect(&constraints->new_constraint);
	fw_listener_disconnect(&constraints->keyboard_focus);
	fw_listener_disconnect(&constraints->pointer_focus);
	free(constraints);
	server->constraints = NULL;
}
