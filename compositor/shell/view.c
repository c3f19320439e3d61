#include "compositor/shell/view.h"
#include "compositor/input/cursor_scene.h"
#include "compositor/input/grab.h"
#include "compositor/input/seat.h"
#include "compositor/listener.h"
#include "compositor/lock/lock.h"
#include "compositor/output/output.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/layer_shell.h"
#include "compositor/shell/titlebar.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_ext_foreign_toplevel_list_v1.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>

static const float titlebar_focused[4] = {0.20f, 0.40f, 0.70f, 1.0f};
static const float titlebar_unfocused[4] = {0.30f, 0.30f, 0.30f, 1.0f};
static const float border_focused[4] = {0.25f, 0.50f, 0.85f, 1.0f};
static const float border_unfocused[4] = {0.20f, 0.20f, 0.20f, 1.0f};
/* A window that asked for the focus and did not get it (activation.h). */
static const float titlebar_urgent[4] = {0.565f, 0.0f, 0.0f, 1.0f};
static const float border_urgent[4] = {0.565f, 0.0f, 0.0f, 1.0f};

static bool ensure_tree(struct fw_view *view);
static void fit_new(struct fw_view *view);

bool fw_view_init(struct fw_view *view, enum fw_view_type type,
		const struct fw_view_impl *impl, struct fw_server *server) {
	view->type = type;
	view->impl = impl;
	view->server = server;
	wl_list_init(&view->link);
	if (!ensure_tree(view)) {
		return false;
	}
	/* Hidden until the client maps it. */
	wlr_scene_node_set_enabled(&view->tree->node, false);
	/* Unmapped views sit at the back of the focus order. */
	wl_list_insert(server->views.prev, &view->link);
	return true;
}

void fw_view_finish(struct fw_view *view) {
	if (view->mapped) {
		fw_view_unmap(view);
	}
	wl_list_remove(&view->link);
	wl_list_init(&view->link);
	fw_titlebar_destroy(view->title);
	view->title = NULL;
	if (view->tree != NULL) {
		wlr_scene_node_destroy(&view->tree->node);
		view->tree = NULL;
	}
}

struct fw_view *fw_view_focused(struct fw_server *server) {
	if (wl_list_empty(&server->views)) {
		return NULL;
	}
	struct fw_view *view = wl_container_of(server->views.next, view, link);
	struct wlr_surface *focused = server->seat->keyboard_state.focused_surface;
	if (!view->mapped || focused == NULL || focused != view->surface) {
		return NULL;
	}
	return view;
}

static void frame_colors(struct fw_view *view, bool focused) {
	if (view->titlebar == NULL) {
		return;
	}
	const float *bar = focused ? titlebar_focused
			: view->urgent     ? titlebar_urgent
							   : titlebar_unfocused;
	const float *border = focused ? border_focused
			: view->urgent        ? border_urgent
								  : border_unfocused;
	wlr_scene_rect_set_color(view->titlebar, bar);
	for (int i = 0; i < 4; i++) {
		wlr_scene_rect_set_color(view->border[i], border);
	}
}

void fw_view_set_urgent(struct fw_view *view, bool urgent) {
	if (view->urgent == urgent) {
		return;
	}
	view->urgent = urgent;
	frame_colors(view, fw_view_focused(view->server) == view);
}

/* The scale of the output the window is on, which its title is drawn for. */
static float view_scale(struct fw_view *view) {
	struct fw_output *output = fw_output_at(view->server, view->x, view->y);
	return output != NULL ? output->wlr_output->scale : 1.0f;
}

static void draw_title(struct fw_view *view, int width) {
	const int b = FW_BORDER_WIDTH, t = FW_TITLEBAR_HEIGHT;
	fw_titlebar_update(view->title,
			view->mapped ? view->impl->get_title(view) : NULL, -b, -t - b,
			width + 2 * b, t, view_scale(view), view->maximized);
}

void fw_view_frame_insets(struct fw_view *view, int *border, int *titlebar) {
	bool framed = view->decorated && !view->fullscreen;
	*border = framed ? FW_BORDER_WIDTH : 0;
	*titlebar = framed ? FW_TITLEBAR_HEIGHT : 0;
}

enum fw_frame_part fw_view_frame_part(
		struct fw_view *view, double lx, double ly) {
	int b, t;
	fw_view_frame_insets(view, &b, &t);
	int width, height;
	view->impl->get_size(view, &width, &height);
	double x = lx - view->x, y = ly - view->y;
	if (t == 0 || y < -t - b || y >= -b || x < -b || x >= width + b) {
		return FW_FRAME_OTHER;
	}
	switch (fw_titlebar_button_at((int)(x + b), width + 2 * b, t)) {
	case FW_TITLEBAR_CLOSE:
		return FW_FRAME_CLOSE;
	case FW_TITLEBAR_MAXIMIZE:
		return FW_FRAME_MAXIMIZE;
	case FW_TITLEBAR_NO_BUTTON:
		break;
	}
	return FW_FRAME_TITLE;
}

void fw_view_update_frame(struct fw_view *view) {
	if (view->titlebar == NULL) {
		return;
	}
	bool show = view->decorated && !view->fullscreen;
	wlr_scene_node_set_enabled(&view->titlebar->node, show);
	fw_titlebar_set_enabled(view->title, show);
	for (int i = 0; i < 4; i++) {
		wlr_scene_node_set_enabled(&view->border[i]->node, show);
	}
	if (!show) {
		return;
	}
	int width, height;
	view->impl->get_size(view, &width, &height);
	const int b = FW_BORDER_WIDTH, t = FW_TITLEBAR_HEIGHT;
	/* The frame sits outside of the window geometry, at (0,0). */
	wlr_scene_rect_set_size(view->titlebar, width + 2 * b, t);
	wlr_scene_node_set_position(&view->titlebar->node, -b, -t - b);
	draw_title(view, width);
	wlr_scene_rect_set_size(view->border[0], width + 2 * b, b);
	wlr_scene_node_set_position(&view->border[0]->node, -b, -b);
	wlr_scene_rect_set_size(view->border[1], width + 2 * b, b);
	wlr_scene_node_set_position(&view->border[1]->node, -b, height);
	wlr_scene_rect_set_size(view->border[2], b, height);
	wlr_scene_node_set_position(&view->border[2]->node, -b, 0);
	wlr_scene_rect_set_size(view->border[3], b, height);
	wlr_scene_node_set_position(&view->border[3]->node, width, 0);
}

void fw_view_move(struct fw_view *view, int x, int y) {
	view->x = x;
	view->y = y;
	if (view->tree != NULL) {
		wlr_scene_node_set_position(&view->tree->node, x, y);
	}
	if (view->mapped) {
		fw_cursor_scene_changed(view->server);
	}
	if (view->impl->configure != NULL && view->type == FW_VIEW_XWAYLAND) {
		/* X clients need to know where they are for their popups. */
		int width, height;
		view->impl->get_size(view, &width, &height);
		view->impl->configure(view, x, y, width, height);
	}
}

/* Places a new window: cascaded, inside the output under the cursor. */
static void place_view(struct fw_view *view) {
	struct fw_server *server = view->server;
	struct fw_output *output = fw_output_focused(server);
	int b, t;
	fw_view_frame_insets(view, &b, &t);
	if (output == NULL) {
		fw_view_move(view, b, t + b);
		return;
	}
	struct wlr_box area;
	fw_output_usable_area(output, &area);
	int width, height;
	view->impl->get_size(view, &width, &height);
	int frame_w = width + 2 * b;
	int frame_h = height + t + 2 * b;
	int step = 32 * (server->cascade % 10);
	server->cascade++;
	int x = area.x + step, y = area.y + step;
	if (x + frame_w > area.x + area.width) {
		x = area.x + area.width - frame_w;
	}
	if (y + frame_h > area.y + area.height) {
		y = area.y + area.height - frame_h;
	}
	if (x < area.x) {
		x = area.x;
	}
	if (y < area.y) {
		y = area.y;
	}
	fw_view_move(view, x + b, y + t + b);
}

static void handle_toplevel_request_activate(
		struct wl_listener *listener, void *data) {
	struct fw_view *view =
			wl_container_of(listener, view, toplevel_request_activate);
	fw_view_focus(view);
}

static void handle_toplevel_request_close(
		struct wl_listener *listener, void *data) {
	struct fw_view *view =
			wl_container_of(listener, view, toplevel_request_close);
	fw_view_close(view);
}

static void handle_toplevel_request_maximize(
		struct wl_listener *listener, void *data) {
	struct fw_view *view =
			wl_container_of(listener, view, toplevel_request_maximize);
	struct wlr_foreign_toplevel_handle_v1_maximized_event *event = data;
	fw_view_maximize(view, event->maximized);
}

static void handle_toplevel_request_fullscreen(
		struct wl_listener *listener, void *data) {
	struct fw_view *view =
			wl_container_of(listener, view, toplevel_request_fullscreen);
	struct wlr_foreign_toplevel_handle_v1_fullscreen_event *event = data;
	fw_view_fullscreen(view, event->fullscreen);
}

void fw_view_update_title(struct fw_view *view) {
	if (view->title != NULL && view->mapped) {
		int width, height;
		view->impl->get_size(view, &width, &height);
		draw_title(view, width);
	}
	const char *title = view->impl->get_title(view);
	const char *app_id = view->impl->get_app_id(view);
	if (view->list_handle != NULL) {
		wlr_ext_foreign_toplevel_handle_v1_update_state(view->list_handle,
				&(struct wlr_ext_foreign_toplevel_handle_v1_state){
						.title = title,
						.app_id = app_id,
				});
	}
	if (view->toplevel_handle == NULL) {
		return;
	}
	wlr_foreign_toplevel_handle_v1_set_title(
			view->toplevel_handle, title != NULL ? title : "");
	wlr_foreign_toplevel_handle_v1_set_app_id(
			view->toplevel_handle, app_id != NULL ? app_id : "");
}

static void create_toplevel_handle(struct fw_view *view) {
	struct fw_server *server = view->server;
	if (server->foreign_toplevel_list != NULL) {
		view->list_handle = wlr_ext_foreign_toplevel_handle_v1_create(
				server->foreign_toplevel_list,
				&(struct wlr_ext_foreign_toplevel_handle_v1_state){
						.title = view->impl->get_title(view),
						.app_id = view->impl->get_app_id(view),
				});
	}
	if (server->foreign_toplevel == NULL) {
		return;
	}
	view->toplevel_handle =
			wlr_foreign_toplevel_handle_v1_create(server->foreign_toplevel);
	if (view->toplevel_handle == NULL) {
		return;
	}
	struct wlr_foreign_toplevel_handle_v1 *handle = view->toplevel_handle;
	fw_listener_connect(&view->toplevel_request_activate,
			&handle->events.request_activate, handle_toplevel_request_activate);
	fw_listener_connect(&view->toplevel_request_close,
			&handle->events.request_close, handle_toplevel_request_close);
	fw_listener_connect(&view->toplevel_request_maximize,
			&handle->events.request_maximize, handle_toplevel_request_maximize);
	fw_listener_connect(&view->toplevel_request_fullscreen,
			&handle->events.request_fullscreen,
			handle_toplevel_request_fullscreen);
	fw_view_update_title(view);
	struct fw_output *output = fw_output_at(server, view->x, view->y);
	if (output != NULL) {
		wlr_foreign_toplevel_handle_v1_output_enter(handle, output->wlr_output);
	}
}

static void destroy_toplevel_handle(struct fw_view *view) {
	/* Accepts NULL. */
	wlr_ext_foreign_toplevel_handle_v1_destroy(view->list_handle);
	view->list_handle = NULL;
	if (view->toplevel_handle == NULL) {
		return;
	}
	fw_listener_disconnect(&view->toplevel_request_activate);
	fw_listener_disconnect(&view->toplevel_request_close);
	fw_listener_disconnect(&view->toplevel_request_maximize);
	fw_listener_disconnect(&view->toplevel_request_fullscreen);
	wlr_foreign_toplevel_handle_v1_destroy(view->toplevel_handle);
	view->toplevel_handle = NULL;
}

static bool ensure_tree(struct fw_view *view) {
	if (view->tree != NULL) {
		return true;
	}
	struct fw_server *server = view->server;
	view->tree = wlr_scene_tree_create(server->layers[FW_LAYER_VIEWS]);
	if (view->tree == NULL) {
		return false;
	}
	view->tree->node.data = view;
	view->titlebar =
			wlr_scene_rect_create(view->tree, 0, 0, titlebar_unfocused);
	for (int i = 0; i < 4; i++) {
		view->border[i] =
				wlr_scene_rect_create(view->tree, 0, 0, border_unfocused);
	}
	/* Above the bar it is written on. */
	view->title = fw_titlebar_create(view->tree);
	if (view->titlebar == NULL || view->border[3] == NULL ||
			view->title == NULL) {
		fw_titlebar_destroy(view->title);
		view->title = NULL;
		wlr_scene_node_destroy(&view->tree->node);
		view->tree = NULL;
		view->titlebar = NULL;
		return false;
	}
	return true;
}

void fw_view_map(struct fw_view *view, struct wlr_surface *surface,
		struct wlr_scene_tree *content, bool place) {
	if (!ensure_tree(view)) {
		wlr_log(WLR_ERROR, "Cannot create the scene tree of a window");
		return;
	}
	view->surface = surface;
	view->content = content;
	if (content != NULL && content->node.parent != view->tree) {
		wlr_scene_node_reparent(&content->node, view->tree);
	}
	view->mapped = true;
	wl_list_remove(&view->link);
	wl_list_insert(&view->server->views, &view->link);
	if (place) {
		place_view(view);
		fit_new(view);
	} else {
		fw_view_move(view, view->x, view->y);
	}
	wlr_scene_node_set_enabled(&view->tree->node, true);
	fw_view_update_frame(view);
	create_toplevel_handle(view);
	fw_view_focus(view);
	fw_cursor_scene_changed(view->server);
}

void fw_view_unmap(struct fw_view *view) {
	struct fw_server *server = view->server;
	bool was_focused = fw_view_focused(server) == view;
	view->mapped = false;
	fw_grab_end(server, view);
	if (view->tree != NULL) {
		wlr_scene_node_set_enabled(&view->tree->node, false);
	}
	destroy_toplevel_handle(view);
	/* Back of the list: never picked by Alt+Tab until mapped again. */
	wl_list_remove(&view->link);
	wl_list_insert(server->views.prev, &view->link);
	view->surface = NULL;
	if (was_focused || server->seat->keyboard_state.focused_surface == NULL) {
		struct fw_view *next = NULL;
		if (!wl_list_empty(&server->views)) {
			next = wl_container_of(server->views.next, next, link);
		}
		if (next != NULL && next->mapped) {
			fw_view_focus(next);
		} else {
			fw_seat_focus_surface(server, NULL);
		}
	}
	fw_cursor_scene_changed(server);
}

static struct fw_view *modal_parent(struct fw_view *view) {
	return view->impl->modal_parent != NULL ? view->impl->modal_parent(view)
											: NULL;
}

/* The front one of its mapped modal dialogs, or NULL. */
static struct fw_view *modal_child(struct fw_view *view) {
	struct fw_view *child;
	wl_list_for_each(child, &view->server->views, link) {
		if (child->mapped && child != view && modal_parent(child) == view) {
			return child;
		}
	}
	return NULL;
}

void fw_view_focus(struct fw_view *view) {
	if (view == NULL || !view->mapped ||
			!fw_lock_input_allowed(view->server, view->surface)) {
		return;
	}
	struct fw_server *server = view->server;
	/*
	 * A window with a modal dialog comes up with the dialog above it, and
	 * the dialog has the focus: the user answers it before the window.
	 */
	struct fw_view *dialog = modal_child(view);
	if (dialog != NULL) {
		wlr_scene_node_raise_to_top(&view->tree->node);
		wl_list_remove(&view->link);
		wl_list_insert(&server->views, &view->link);
		fw_view_focus(dialog);
		return;
	}
	struct fw_view *prev;
	wl_list_for_each(prev, &server->views, link) {
		if (prev != view && prev->mapped) {
			prev->impl->set_activated(prev, false);
			frame_colors(prev, false);
			if (prev->toplevel_handle != NULL) {
				wlr_foreign_toplevel_handle_v1_set_activated(
						prev->toplevel_handle, false);
			}
		}
	}
	wlr_scene_node_raise_to_top(&view->tree->node);
	wl_list_remove(&view->link);
	wl_list_insert(&server->views, &view->link);
	view->urgent = false;
	view->impl->set_activated(view, true);
	frame_colors(view, true);
	if (view->toplevel_handle != NULL) {
		wlr_foreign_toplevel_handle_v1_set_activated(
				view->toplevel_handle, true);
	}
	/* A launcher or lock holding the keyboard keeps it; this window gets it
	 * when that one goes, being at the front now. */
	if (!fw_layer_shell_grabs_keyboard(server)) {
		fw_seat_focus_surface(server, view->surface);
	}
}

void fw_view_restack_dialogs(struct fw_server *server) {
	struct fw_view *front = fw_view_focused(server);
	if (front != NULL) {
		fw_view_focus(front);
	}
}

void fw_view_cycle_focus(struct fw_server *server) {
	/*
	 * The front view goes to the back; the next mapped one comes up. A
	 * modal dialog is no stop of its own: it comes up with its parent,
	 * and its parent goes back with it.
	 */
	struct fw_view *current = fw_view_focused(server);
	while (current != NULL && modal_parent(current) != NULL) {
		current = modal_parent(current);
	}
	struct fw_view *view;
	wl_list_for_each_reverse(view, &server->views, link) {
		if (view->mapped && view != current && modal_parent(view) == NULL) {
			if (current != NULL) {
				wl_list_remove(&current->link);
				wl_list_insert(server->views.prev, &current->link);
			}
			fw_view_focus(view);
			return;
		}
	}
}

/* A maximized window fills what the output leaves for windows. */
static void fit_to_area(struct fw_view *view, struct fw_output *output) {
	struct wlr_box area;
	fw_output_usable_area(output, &area);
	int b, t;
	fw_view_frame_insets(view, &b, &t);
	fw_view_move(view, area.x + b, area.y + t + b);
	view->impl->configure(view, area.x + b, area.y + t + b, area.width - 2 * b,
			area.height - t - 2 * b);
}

void fw_view_max_size(struct fw_view *view, struct fw_output *output,
		int *width, int *height) {
	struct wlr_box area;
	fw_output_usable_area(output, &area);
	int b, t;
	fw_view_frame_insets(view, &b, &t);
	*width = area.width - 2 * b;
	*height = area.height - t - 2 * b;
}

/*
 * A new window that chose a size larger than what its output leaves for
 * windows is told to fit; it is placed first, at the size it has, with its
 * top-left corner inside that space.
 */
static void fit_new(struct fw_view *view) {
	struct fw_output *output = fw_output_focused(view->server);
	if (output == NULL || view->maximized || view->fullscreen) {
		return;
	}
	int max_width, max_height, width, height;
	fw_view_max_size(view, output, &max_width, &max_height);
	view->impl->get_size(view, &width, &height);
	if ((width <= max_width && height <= max_height) || max_width < 1 ||
			max_height < 1) {
		return;
	}
	view->impl->configure(view, view->x, view->y,
			width < max_width ? width : max_width,
			height < max_height ? height : max_height);
}

void fw_view_set_decorated(struct fw_view *view, bool decorated) {
	if (view->decorated == decorated) {
		return;
	}
	view->decorated = decorated;
	if (!view->mapped) {
		return;
	}
	if (view->maximized && !view->fullscreen) {
		struct fw_output *output = fw_output_at(view->server, view->x, view->y);
		if (output != NULL) {
			fit_to_area(view, output);
		}
	}
	fw_view_update_frame(view);
}

/*
 * Along one axis, moves a window's frame [*lo, *lo + *span) out of the
 * bands exclusive zones take between the output's edges and the usable
 * area's: only a frame that reaches into a band moves, the least it must,
 * and shrinks where the usable area is narrower than it.
 */
static void clear_band(
		int full_lo, int full_hi, int use_lo, int use_hi, int *lo, int *span) {
	int start = *lo, end = *lo + *span;
	bool in_low = use_lo > full_lo && start < use_lo && end > full_lo;
	bool in_high = use_hi < full_hi && end > use_hi && start < full_hi;
	if (!in_low && !in_high) {
		return;
	}
	int size = use_hi - use_lo < *span ? use_hi - use_lo : *span;
	if (in_low) {
		start = use_lo;
	}
	if (start + size > use_hi) {
		start = use_hi - size;
	}
	*lo = start;
	*span = size;
}

/*
 * Puts view's frame with its top-left corner at x, y, around a window of
 * width by height: moves it and configures it only where that changes
 * something.
 */
static void place_frame(
		struct fw_view *view, int x, int y, int width, int height) {
	int b, t, old_width, old_height;
	fw_view_frame_insets(view, &b, &t);
	view->impl->get_size(view, &old_width, &old_height);
	if (x + b != view->x || y + t + b != view->y) {
		fw_view_move(view, x + b, y + t + b);
	}
	if (width != old_width || height != old_height) {
		view->impl->configure(view, view->x, view->y, width, height);
	}
}

/*
 * Where view's frame goes to leave the bands between the output's edges
 * (full) and the usable area, as clear_band moves it along each axis: the
 * frame's top-left corner, and the size of the window in it. With full
 * NULL no edge bounds a band, so all outside the area is one, and the
 * frame comes inside the area, moved and shrunk the least it must.
 */
static void cleared_frame(struct fw_view *view, const struct wlr_box *full,
		const struct wlr_box *area, int *x, int *y, int *width, int *height) {
	int full_x0 = INT_MIN, full_x1 = INT_MAX;
	int full_y0 = INT_MIN, full_y1 = INT_MAX;
	if (full != NULL) {
		full_x0 = full->x;
		full_x1 = full->x + full->width;
		full_y0 = full->y;
		full_y1 = full->y + full->height;
	}
	int b, t;
	fw_view_frame_insets(view, &b, &t);
	view->impl->get_size(view, width, height);
	*x = view->x - b;
	*y = view->y - t - b;
	int frame_w = *width + 2 * b, frame_h = *height + t + 2 * b;
	clear_band(full_x0, full_x1, area->x, area->x + area->width, x, &frame_w);
	clear_band(full_y0, full_y1, area->y, area->y + area->height, y, &frame_h);
	*width = frame_w - 2 * b;
	*height = frame_h - t - 2 * b;
}

/* A window an exclusive zone covers moves out of it, whole if it fits. */
static void clear_zones(struct fw_view *view, const struct wlr_box *full,
		const struct wlr_box *area) {
	int x, y, width, height;
	cleared_frame(view, full, area, &x, &y, &width, &height);
	if (width < 1 || height < 1) {
		return;
	}
	place_frame(view, x, y, width, height);
}

void fw_view_refit_zones(struct fw_server *server, struct fw_output *output) {
	struct wlr_box full, area;
	fw_output_box(output, &full);
	fw_output_usable_area(output, &area);
	struct fw_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped || view->fullscreen ||
				fw_output_at(server, view->x, view->y) != output) {
			continue;
		}
		if (view->maximized) {
			fit_to_area(view, output);
		} else {
			clear_zones(view, &full, &area);
		}
	}
}

/* A window that is neither maximized nor fullscreen: moved and shrunk the
 * least it must for its frame to lie inside the usable area. */
static void fit_placed(struct fw_view *view, struct fw_output *output) {
	int max_width, max_height;
	fw_view_max_size(view, output, &max_width, &max_height);
	if (max_width < 1 || max_height < 1) {
		return;
	}
	struct wlr_box area;
	fw_output_usable_area(output, &area);
	int x, y, width, height;
	cleared_frame(view, NULL, &area, &x, &y, &width, &height);
	place_frame(view, x, y, width, height);
}

void fw_view_refit(struct fw_server *server, struct fw_output *output) {
	struct wlr_box box;
	fw_output_box(output, &box);
	struct fw_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped || fw_output_at(server, view->x, view->y) != output) {
			continue;
		}
		if (view->fullscreen) {
			fw_view_move(view, box.x, box.y);
			view->impl->configure(view, box.x, box.y, box.width, box.height);
		} else if (!view->maximized) {
			/* Maximized ones were fitted as its usable area changed. */
			fit_placed(view, output);
		}
	}
}

void fw_view_maximize(struct fw_view *view, bool maximized) {
	if (!view->mapped || view->fullscreen) {
		view->impl->set_maximized(view, maximized);
		view->maximized = maximized;
		return;
	}
	struct fw_output *output = fw_output_at(view->server, view->x, view->y);
	if (output == NULL) {
		output = fw_output_focused(view->server);
	}
	if (maximized && !view->maximized && output != NULL) {
		int width, height;
		view->impl->get_size(view, &width, &height);
		view->saved = (struct wlr_box){view->x, view->y, width, height};
		view->maximized = true;
		view->impl->set_maximized(view, true);
		fit_to_area(view, output);
	} else if (!maximized && view->maximized) {
		view->maximized = false;
		view->impl->set_maximized(view, false);
		fw_view_move(view, view->saved.x, view->saved.y);
		view->impl->configure(view, view->saved.x, view->saved.y,
				view->saved.width, view->saved.height);
	} else {
		/* xdg-shell wants a configure in answer to every request. */
		view->impl->set_maximized(view, view->maximized);
	}
	fw_view_update_frame(view);
	if (view->toplevel_handle != NULL) {
		wlr_foreign_toplevel_handle_v1_set_maximized(
				view->toplevel_handle, view->maximized);
	}
	fw_sched_note_window_event(view->server->sched, view->surface);
}

void fw_view_fullscreen(struct fw_view *view, bool fullscreen) {
	struct fw_output *output = fw_output_at(view->server, view->x, view->y);
	if (output == NULL) {
		output = fw_output_focused(view->server);
	}
	if (!view->mapped) {
		view->impl->set_fullscreen(view, fullscreen);
		view->fullscreen = fullscreen;
		return;
	}
	if (fullscreen && !view->fullscreen && output != NULL) {
		if (!view->maximized) {
			int width, height;
			view->impl->get_size(view, &width, &height);
			view->saved = (struct wlr_box){view->x, view->y, width, height};
		}
		struct wlr_box box;
		fw_output_box(output, &box);
		view->fullscreen = true;
		view->impl->set_fullscreen(view, true);
		fw_view_move(view, box.x, box.y);
		view->impl->configure(view, box.x, box.y, box.width, box.height);
		/* Above the top layer shell surfaces, like a fullscreen window. */
		wlr_scene_node_reparent(
				&view->tree->node, view->server->layers[FW_LAYER_OVERLAY]);
	} else if (!fullscreen && view->fullscreen) {
		view->fullscreen = false;
		view->impl->set_fullscreen(view, false);
		wlr_scene_node_reparent(
				&view->tree->node, view->server->layers[FW_LAYER_VIEWS]);
		struct wlr_box saved = view->saved;
		view->maximized = false;
		fw_view_move(view, saved.x, saved.y);
		view->impl->configure(
				view, saved.x, saved.y, saved.width, saved.height);
		view->impl->set_maximized(view, false);
	} else {
		view->impl->set_fullscreen(view, view->fullscreen);
	}
	fw_view_update_frame(view);
	if (view->toplevel_handle != NULL) {
		wlr_foreign_toplevel_handle_v1_set_fullscreen(
				view->toplevel_handle, view->fullscreen);
	}
	fw_sched_note_window_event(view->server->sched, view->surface);
}

void fw_view_plan_state(struct fw_view *view, bool maximized, bool fullscreen) {
	view->impl->set_maximized(view, maximized);
	view->impl->set_fullscreen(view, fullscreen);
	struct fw_output *output = fw_output_focused(view->server);
	if (output == NULL || (!maximized && !fullscreen)) {
		return;
	}
	struct wlr_box area;
	if (fullscreen) {
		fw_output_box(output, &area);
	} else {
		fw_output_usable_area(output, &area);
	}
	int b = view->decorated && !fullscreen ? FW_BORDER_WIDTH : 0;
	int t = view->decorated && !fullscreen ? FW_TITLEBAR_HEIGHT : 0;
	view->impl->configure(view, area.x + b, area.y + t + b, area.width - 2 * b,
			area.height - t - 2 * b);
}

void fw_view_close(struct fw_view *view) {
	fw_sched_note_window_event(view->server->sched, view->surface);
	view->impl->close(view);
}

void fw_view_begin_interactive(
		struct fw_view *view, enum fw_grab_mode mode, uint32_t edges) {
	if (!view->mapped || view->fullscreen) {
		return;
	}
	if (view->maximized) {
		fw_view_maximize(view, false);
	}
	fw_grab_begin(view->server, view, mode, edges);
}

struct fw_view *fw_view_at(struct fw_server *server, double lx, double ly,
		struct wlr_surface **surface, double *sx, double *sy) {
	*surface = NULL;
	struct wlr_scene_node *node =
			wlr_scene_node_at(&server->scene->tree.node, lx, ly, sx, sy);
	if (node == NULL) {
		return NULL;
	}
	if (node->type == WLR_SCENE_NODE_BUFFER) {
		struct wlr_scene_surface *scene_surface =
				wlr_scene_surface_try_from_buffer(
						wlr_scene_buffer_from_node(node));
		if (scene_surface != NULL) {
			*surface = scene_surface->surface;
		}
	}
	while (node != NULL && node->data == NULL) {
		node = node->parent != NULL ? &node->parent->node : NULL;
	}
	return node != NULL ? node->data : NULL;
}

struct fw_view *fw_view_from_surface(
		struct fw_server *server, struct wlr_surface *surface) {
	struct fw_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped && view->surface == surface) {
			return view;
		}
	}
	return NULL;
}

static bool has_app_id(const char *ids, size_t len, const char *id) {
	for (size_t at = 0; at < len; at += strlen(ids + at) + 1) {
		if (strcmp(ids + at, id) == 0) {
			return true;
		}
	}
	return false;
}

size_t fw_view_app_ids(struct fw_server *server, struct wl_client *client,
		char *ids, size_t size, int max) {
	size_t len = 0;
	int count = 0;
	struct fw_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped || view->surface == NULL ||
				view->surface->resource == NULL ||
				wl_resource_get_client(view->surface->resource) != client) {
			continue;
		}
		const char *id = view->impl->get_app_id(view);
		size_t id_size = id != NULL ? strlen(id) + 1 : 0;
		if (id_size <= 1 || count == max || len + id_size > size ||
				has_app_id(ids, len, id)) {
			continue;
		}
		memcpy(ids + len, id, id_size);
		len += id_size;
		count++;
	}
	return len;
}
