/*
 * The session lock: what fairway does with it. The protocol objects and
 * their errors are wlroots' (wlr_session_lock_v1); the policy is here.
 *
 * Locking disables every scene layer but FW_LAYER_LOCK, which holds, per
 * output, an opaque rect of the output's size and, above it, the lock
 * surface once the locker has one. Both render paths (wlr_scene's and
 * render.c's) paint only enabled nodes, and screencopy copies the buffer
 * they produced, so what a locked output shows is what is in that layer. A
 * frame the paint worker was painting when the session locked shows the
 * windows: it is discarded, never committed.
 *
 * `locked` goes to the locker only once every output in the layout has
 * committed a frame drawn with the lock: the protocol's promise that the
 * normal content is hidden. A locker that dies, or breaks the protocol
 * (wlroots ends it with a protocol error), leaves the session locked on
 * the solid colour; a new locker may then lock, and unlock.
 */
#include "compositor/lock/lock.h"
#include "compositor/input/cursor.h"
#include "compositor/input/grab.h"
#include "compositor/input/seat.h"
#include "compositor/listener.h"
#include "compositor/lock/capture.h"
#include "compositor/lock/idle.h"
#include "compositor/output/output.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include <stdlib.h>
#include <time.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_session_lock_v1.h>
#include <wlr/util/log.h>

/* What a locked output shows where there is no lock surface: #202020. */
static const float lock_color[4] = {0.125f, 0.125f, 0.125f, 1.0f};

struct lock_output {
	struct wl_list link; /* fw_lock.outputs */
	struct fw_lock *lock;
	struct wlr_output *output;
	struct wlr_scene_tree *tree;
	struct wlr_scene_rect *background;
	struct lock_surface *surface; /* NULL until the locker has one here */
	/* A frame committed since locking; only then is the lock on screen. */
	bool shown;

	struct wl_listener precommit;
	struct wl_listener commit;
	struct wl_listener destroy;
};

/*
 * A lock surface of the current lock; only those have one, so a lock
 * surface whose data is NULL (an earlier lock's) gets no input.
 */
struct lock_surface {
	struct fw_lock *lock;
	struct wlr_session_lock_surface_v1 *lock_surface;
	struct lock_output *output;
	struct wlr_scene_tree *tree; /* NULL once the scene dropped it */
	uint32_t width, height; /* last configured size */

	struct wl_listener map;
	struct wl_listener destroy;
	struct wl_listener node_destroy;
};

struct fw_lock {
	struct fw_server *server;
	struct wlr_session_lock_manager_v1 *manager;
	struct wl_list outputs; /* lock_output.link */

	bool locked;
	/* The live lock, NULL when unlocked or when its client went away. */
	struct wlr_session_lock_v1 *current;

	/* Input is exclusive (locked); focus is saved. */
	bool exclusive;
	struct wlr_surface *saved_focus;

	struct wl_listener new_lock;
	struct wl_listener current_new_surface;
	struct wl_listener current_unlock;
	struct wl_listener current_destroy;
	struct wl_listener layout_add;
	struct wl_listener layout_change;
	struct wl_listener cursor_button;
	struct wl_listener saved_focus_destroy;
};

static uint32_t now_msec(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

bool fw_lock_input_allowed(
		struct fw_server *server, struct wlr_surface *surface) {
	struct fw_lock *lock = server->lock;
	if (surface == NULL || lock == NULL) {
		return true;
	}
	if (!lock->locked) {
		return true;
	}
	/* Subsurfaces of a lock surface belong to it. */
	struct wlr_surface *root = wlr_surface_get_root_surface(surface);
	struct wlr_session_lock_surface_v1 *lock_surface =
			wlr_session_lock_surface_v1_try_from_wlr_surface(root);
	return lock_surface != NULL && lock_surface->data != NULL &&
			lock->current != NULL;
}

bool fw_lock_session_locked(struct fw_server *server) {
	return server->lock != NULL && server->lock->locked;
}

bool fw_lock_bindings_allowed(struct fw_server *server) {
	struct fw_lock *lock = server->lock;
	return lock == NULL || !lock->locked;
}

/* --- focus ------------------------------------------------------------ */

static void forget_saved_focus(struct fw_lock *lock) {
	fw_listener_disconnect(&lock->saved_focus_destroy);
	lock->saved_focus = NULL;
}

static void handle_saved_focus_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_lock *lock = wl_container_of(listener, lock, saved_focus_destroy);
	forget_saved_focus(lock);
}

static void save_focus(struct fw_lock *lock, struct wlr_surface *surface) {
	forget_saved_focus(lock);
	if (surface == NULL) {
		return;
	}
	lock->saved_focus = surface;
	fw_listener_connect(&lock->saved_focus_destroy, &surface->events.destroy,
			handle_saved_focus_destroy);
}

/* Gives the keyboard back to what had it before input became exclusive. */
static void restore_focus(struct fw_lock *lock) {
	struct fw_server *server = lock->server;
	struct wlr_surface *surface = lock->saved_focus;
	forget_saved_focus(lock);
	struct fw_view *view =
			surface != NULL ? fw_view_from_surface(server, surface) : NULL;
	if (view != NULL) {
		fw_view_focus(view);
		return;
	}
	if (surface != NULL && surface->mapped &&
			wlr_layer_surface_v1_try_from_wlr_surface(surface) != NULL) {
		fw_seat_focus_surface(server, surface);
		return;
	}
	if (!wl_list_empty(&server->views)) {
		view = wl_container_of(server->views.next, view, link);
		fw_view_focus(view);
	}
}

static struct wlr_surface *pick_lock_surface(struct fw_lock *lock) {
	struct wlr_output *under_cursor =
			wlr_output_layout_output_at(lock->server->output_layout,
					lock->server->cursor->x, lock->server->cursor->y);
	struct wlr_surface *first = NULL;
	struct lock_output *output;
	wl_list_for_each(output, &lock->outputs, link) {
		struct lock_surface *surface = output->surface;
		if (surface == NULL || !surface->lock_surface->surface->mapped) {
			continue;
		}
		if (output->output == under_cursor) {
			return surface->lock_surface->surface;
		}
		if (first == NULL) {
			first = surface->lock_surface->surface;
		}
	}
	return first;
}

static void end_grabs(struct fw_lock *lock) {
	struct fw_server *server = lock->server;
	fw_grab_end(server, NULL);
	wlr_seat_pointer_end_grab(server->seat);
	wlr_seat_keyboard_end_grab(server->seat);
	wlr_seat_touch_end_grab(server->seat);
}

/*
 * Brings focus in line with who may have input: takes it from whoever
 * may not, gives it to a lock surface, and back once unlocked.
 */
static void update_focus(struct fw_lock *lock) {
	struct fw_server *server = lock->server;
	struct wlr_seat *seat = server->seat;
	if (!lock->locked) {
		if (lock->exclusive) {
			lock->exclusive = false;
			restore_focus(lock);
			fw_cursor_refocus(server, now_msec());
		}
		return;
	}
	if (!lock->exclusive) {
		lock->exclusive = true;
		save_focus(lock, seat->keyboard_state.focused_surface);
		end_grabs(lock);
	}
	struct wlr_surface *focused = seat->keyboard_state.focused_surface;
	if (!fw_lock_input_allowed(server, focused)) {
		wlr_seat_keyboard_notify_clear_focus(seat);
		focused = NULL;
	}
	if (focused == NULL) {
		struct wlr_surface *target = pick_lock_surface(lock);
		if (target != NULL) {
			fw_seat_focus_surface(server, target);
		}
	}
	if (!fw_lock_input_allowed(server, seat->pointer_state.focused_surface)) {
		wlr_seat_pointer_notify_clear_focus(seat);
	}
	fw_cursor_refocus(server, now_msec());
}

/* Focus follows clicks between lock surfaces. */
static void handle_cursor_button(struct wl_listener *listener, void *data) {
	struct fw_lock *lock = wl_container_of(listener, lock, cursor_button);
	struct wlr_pointer_button_event *event = data;
	if (!lock->locked || event->state != WL_POINTER_BUTTON_STATE_PRESSED) {
		return;
	}
	struct wlr_surface *surface = NULL;
	double sx, sy;
	fw_view_at(lock->server, lock->server->cursor->x, lock->server->cursor->y,
			&surface, &sx, &sy);
	struct wlr_surface *root =
			surface != NULL ? wlr_surface_get_root_surface(surface) : NULL;
	if (root != NULL && fw_lock_input_allowed(lock->server, root)) {
		fw_seat_focus_surface(lock->server, root);
	}
}

/* --- outputs ---------------------------------------------------------- */

static void set_layers(struct fw_lock *lock, bool locked) {
	for (int i = 0; i < FW_LAYER_COUNT; i++) {
		bool enabled = i == FW_LAYER_LOCK ? locked : !locked;
		wlr_scene_node_set_enabled(&lock->server->layers[i]->node, enabled);
	}
}

static void maybe_send_locked(struct fw_lock *lock) {
	if (!lock->locked || lock->current == NULL || lock->current->locked_sent) {
		return;
	}
	struct lock_output *output;
	wl_list_for_each(output, &lock->outputs, link) {
		bool displayed = output->output->enabled &&
				wlr_output_layout_get(
						lock->server->output_layout, output->output) != NULL;
		if (displayed && !output->shown) {
			return;
		}
	}
	wlr_log(WLR_INFO, "Session locked");
	wlr_session_lock_v1_send_locked(lock->current);
}

static void configure_surface(struct lock_surface *surface) {
	struct lock_output *output = surface->output;
	if (output == NULL) {
		return;
	}
	int width, height;
	wlr_output_effective_resolution(output->output, &width, &height);
	if (width <= 0 || height <= 0 ||
			(surface->width == (uint32_t)width &&
					surface->height == (uint32_t)height)) {
		return;
	}
	surface->width = (uint32_t)width;
	surface->height = (uint32_t)height;
	wlr_session_lock_surface_v1_configure(
			surface->lock_surface, surface->width, surface->height);
	/* The locker is the client the user waits on now. */
	fw_sched_note_window_event(
			surface->lock->server->sched, surface->lock_surface->surface);
}

static void arrange_output(struct lock_output *output) {
	struct wlr_output_layout_output *placed = wlr_output_layout_get(
			output->lock->server->output_layout, output->output);
	wlr_scene_node_set_enabled(&output->tree->node, placed != NULL);
	if (placed == NULL) {
		return;
	}
	int width, height;
	wlr_output_effective_resolution(output->output, &width, &height);
	wlr_scene_node_set_position(&output->tree->node, placed->x, placed->y);
	wlr_scene_rect_set_size(output->background, width, height);
	if (output->surface != NULL) {
		configure_surface(output->surface);
	}
}

static void handle_output_precommit(struct wl_listener *listener, void *data) {
	struct lock_output *output = wl_container_of(listener, output, precommit);
	if (output->lock->locked) {
		fw_capture_output_precommit(
				output->lock->server->capture, output->output);
	}
}

static void handle_output_commit(struct wl_listener *listener, void *data) {
	struct lock_output *output = wl_container_of(listener, output, commit);
	struct wlr_output_event_commit *event = data;
	if (!output->lock->locked || output->shown ||
			!(event->state->committed & WLR_OUTPUT_STATE_BUFFER)) {
		return;
	}
	output->shown = true;
	maybe_send_locked(output->lock);
}

static void lock_surface_destroy(struct lock_surface *surface);

static void lock_output_destroy(struct lock_output *output) {
	if (output->surface != NULL) {
		lock_surface_destroy(output->surface);
	}
	fw_listener_disconnect(&output->precommit);
	fw_listener_disconnect(&output->commit);
	fw_listener_disconnect(&output->destroy);
	wl_list_remove(&output->link);
	wlr_scene_node_destroy(&output->tree->node);
	free(output);
}

static void handle_output_destroy(struct wl_listener *listener, void *data) {
	struct lock_output *output = wl_container_of(listener, output, destroy);
	struct fw_lock *lock = output->lock;
	lock_output_destroy(output);
	maybe_send_locked(lock);
}

static struct lock_output *find_output(
		struct fw_lock *lock, struct wlr_output *wlr_output) {
	struct lock_output *output;
	wl_list_for_each(output, &lock->outputs, link) {
		if (output->output == wlr_output) {
			return output;
		}
	}
	return NULL;
}

static struct lock_output *ensure_output(
		struct fw_lock *lock, struct wlr_output *wlr_output) {
	struct lock_output *output = find_output(lock, wlr_output);
	if (output != NULL) {
		return output;
	}
	output = calloc(1, sizeof(*output));
	if (output == NULL) {
		return NULL;
	}
	output->lock = lock;
	output->output = wlr_output;
	output->tree = wlr_scene_tree_create(lock->server->layers[FW_LAYER_LOCK]);
	if (output->tree == NULL) {
		free(output);
		return NULL;
	}
	output->background = wlr_scene_rect_create(output->tree, 0, 0, lock_color);
	if (output->background == NULL) {
		wlr_scene_node_destroy(&output->tree->node);
		free(output);
		return NULL;
	}
	/* An output that comes while locked has shown nothing of the lock. */
	output->shown = !lock->locked;
	fw_listener_connect(&output->precommit, &wlr_output->events.precommit,
			handle_output_precommit);
	fw_listener_connect(
			&output->commit, &wlr_output->events.commit, handle_output_commit);
	fw_listener_connect(&output->destroy, &wlr_output->events.destroy,
			handle_output_destroy);
	wl_list_insert(lock->outputs.prev, &output->link);
	return output;
}

static void arrange_outputs(struct fw_lock *lock) {
	struct wlr_output_layout_output *placed;
	wl_list_for_each(placed, &lock->server->output_layout->outputs, link) {
		ensure_output(lock, placed->output);
	}
	struct lock_output *output;
	wl_list_for_each(output, &lock->outputs, link) {
		arrange_output(output);
	}
	maybe_send_locked(lock);
}

static void handle_layout_add(struct wl_listener *listener, void *data) {
	struct fw_lock *lock = wl_container_of(listener, lock, layout_add);
	arrange_outputs(lock);
}

static void handle_layout_change(struct wl_listener *listener, void *data) {
	struct fw_lock *lock = wl_container_of(listener, lock, layout_change);
	arrange_outputs(lock);
}

/* --- lock surfaces ---------------------------------------------------- */

static void lock_surface_destroy(struct lock_surface *surface) {
	fw_listener_disconnect(&surface->map);
	fw_listener_disconnect(&surface->destroy);
	fw_listener_disconnect(&surface->node_destroy);
	if (surface->tree != NULL) {
		wlr_scene_node_destroy(&surface->tree->node);
	}
	if (surface->output != NULL && surface->output->surface == surface) {
		surface->output->surface = NULL;
	}
	surface->lock_surface->data = NULL;
	free(surface);
}

static void handle_surface_map(struct wl_listener *listener, void *data) {
	struct lock_surface *surface = wl_container_of(listener, surface, map);
	update_focus(surface->lock);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
	struct lock_surface *surface = wl_container_of(listener, surface, destroy);
	struct fw_lock *lock = surface->lock;
	lock_surface_destroy(surface);
	/* Its output falls back to the solid colour; focus moves on. */
	update_focus(lock);
}

static void handle_node_destroy(struct wl_listener *listener, void *data) {
	struct lock_surface *surface =
			wl_container_of(listener, surface, node_destroy);
	fw_listener_disconnect(&surface->node_destroy);
	surface->tree = NULL;
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_lock *lock = wl_container_of(listener, lock, current_new_surface);
	struct wlr_session_lock_surface_v1 *lock_surface = data;
	struct lock_output *output = ensure_output(lock, lock_surface->output);
	if (output == NULL) {
		return;
	}
	if (output->surface != NULL) {
		/* An output shows one lock surface. wlroots refuses a lock a
		 * second one there, and an earlier lock's went with that lock,
		 * so this is only a guard. */
		lock_surface_destroy(output->surface);
	}
	struct lock_surface *surface = calloc(1, sizeof(*surface));
	if (surface == NULL) {
		return;
	}
	surface->tree = wlr_scene_subsurface_tree_create(
			output->tree, lock_surface->surface);
	if (surface->tree == NULL) {
		free(surface);
		return;
	}
	surface->lock = lock;
	surface->lock_surface = lock_surface;
	surface->output = output;
	lock_surface->data = surface;
	output->surface = surface;
	fw_listener_connect(&surface->map, &lock_surface->surface->events.map,
			handle_surface_map);
	fw_listener_connect(&surface->destroy, &lock_surface->events.destroy,
			handle_surface_destroy);
	fw_listener_connect(&surface->node_destroy,
			&surface->tree->node.events.destroy, handle_node_destroy);
	/* The first configure goes at once, placed in the layout or not. */
	configure_surface(surface);
	arrange_output(output);
}

/* --- the lock itself -------------------------------------------------- */

static void drop_surfaces(struct fw_lock *lock) {
	struct lock_output *output;
	wl_list_for_each(output, &lock->outputs, link) {
		if (output->surface != NULL) {
			lock_surface_destroy(output->surface);
		}
	}
}

static void detach_current(struct fw_lock *lock) {
	fw_listener_disconnect(&lock->current_new_surface);
	fw_listener_disconnect(&lock->current_unlock);
	fw_listener_disconnect(&lock->current_destroy);
	lock->current->data = NULL;
	lock->current = NULL;
}

static void unlock(struct fw_lock *lock) {
	wlr_log(WLR_INFO, "Session unlocked");
	lock->locked = false;
	fw_capture_unlock(lock->server->capture);
	drop_surfaces(lock);
	set_layers(lock, false);
	update_focus(lock);
	fw_idle_update(lock->server);
}

static void handle_unlock(struct wl_listener *listener, void *data) {
	struct fw_lock *lock = wl_container_of(listener, lock, current_unlock);
	detach_current(lock);
	unlock(lock);
}

static void handle_current_destroy(struct wl_listener *listener, void *data) {
	struct fw_lock *lock = wl_container_of(listener, lock, current_destroy);
	detach_current(lock);
	/*
	 * The locker died or broke the protocol (wlroots takes a destroy
	 * before locked for one): stay locked on the solid colour until
	 * another locker unlocks.
	 */
	wlr_log(WLR_ERROR,
			"The screen locker went away; the session stays "
			"locked until a new locker unlocks it");
	drop_surfaces(lock);
	update_focus(lock);
	fw_idle_update(lock->server);
}

static void handle_new_lock(struct wl_listener *listener, void *data) {
	struct fw_lock *lock = wl_container_of(listener, lock, new_lock);
	struct wlr_session_lock_v1 *session_lock = data;
	if (lock->current != NULL) {
		/* One live locker at a time: finished, and the lock goes inert. */
		wlr_session_lock_v1_destroy(session_lock);
		return;
	}
	lock->current = session_lock;
	session_lock->data = lock;
	fw_listener_connect(&lock->current_new_surface,
			&session_lock->events.new_surface, handle_new_surface);
	fw_listener_connect(
			&lock->current_unlock, &session_lock->events.unlock, handle_unlock);
	fw_listener_connect(&lock->current_destroy, &session_lock->events.destroy,
			handle_current_destroy);

	if (!lock->locked) {
		wlr_log(WLR_INFO, "Locking the session");
		lock->locked = true;
		fw_capture_lock(lock->server->capture);
		struct lock_output *output;
		wl_list_for_each(output, &lock->outputs, link) {
			output->shown = false;
			/* A frame being painted shows windows: never commit it. */
			if (output->output->data != NULL) {
				fw_output_discard_paint(output->output->data);
			}
			if (output->output->enabled) {
				wlr_output_schedule_frame(output->output);
			}
		}
		set_layers(lock, true);
	}
	update_focus(lock);
	fw_idle_update(lock->server);
	maybe_send_locked(lock);
}

/* --- life ------------------------------------------------------------- */

bool fw_lock_create(struct fw_server *server) {
	struct fw_lock *lock = calloc(1, sizeof(*lock));
	if (lock == NULL) {
		return false;
	}
	lock->server = server;
	wl_list_init(&lock->outputs);
	/* It goes with the display. */
	lock->manager = wlr_session_lock_manager_v1_create(server->display);
	if (lock->manager == NULL) {
		free(lock);
		return false;
	}
	server->lock = lock;
	set_layers(lock, false);

	fw_listener_connect(
			&lock->new_lock, &lock->manager->events.new_lock, handle_new_lock);
	fw_listener_connect(&lock->layout_add, &server->output_layout->events.add,
			handle_layout_add);
	fw_listener_connect(&lock->layout_change,
			&server->output_layout->events.change, handle_layout_change);
	fw_listener_connect(&lock->cursor_button, &server->cursor->events.button,
			handle_cursor_button);
	arrange_outputs(lock);
	return true;
}

void fw_lock_destroy(struct fw_server *server) {
	struct fw_lock *lock = server->lock;
	if (lock == NULL) {
		return;
	}
	if (lock->current != NULL) {
		detach_current(lock);
	}
	forget_saved_focus(lock);
	struct lock_output *output, *tmp;
	wl_list_for_each_safe(output, tmp, &lock->outputs, link) {
		lock_output_destroy(output);
	}
	fw_listener_disconnect(&lock->new_lock);
	fw_listener_disconnect(&lock->layout_add);
	fw_listener_disconnect(&lock->layout_change);
	fw_listener_disconnect(&lock->cursor_button);
	server->lock = NULL;
	free(lock);
}
