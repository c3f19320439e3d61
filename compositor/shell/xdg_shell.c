#include "compositor/shell/xdg_shell.h"
#include "compositor/input/grab.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/decoration.h"
#include "compositor/shell/dialog.h"
#include "compositor/shell/layer_shell.h"
#include "compositor/shell/view.h"
#include <stdlib.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

struct fw_xdg_view {
	struct fw_view view;
	struct wlr_xdg_toplevel *toplevel;
	int last_width, last_height;
	/* Where the window geometry began in the main surface, once known. */
	int last_geo_x, last_geo_y;
	bool geo_known;

	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
	struct wl_listener commit;
	struct wl_listener request_move;
	struct wl_listener request_resize;
	struct wl_listener request_maximize;
	struct wl_listener request_fullscreen;
	struct wl_listener set_title;
	struct wl_listener set_app_id;

	/*
	 * The scene's node for its main surface: the outputs it shows on, as
	 * wlr_scene finds them with what covers it taken off (suspended).
	 */
	struct wlr_scene_buffer *buffer;
	struct wl_listener output_enter;
	struct wl_listener output_leave;
	struct wl_listener buffer_destroy;
};

struct fw_xdg_popup {
	struct fw_server *server;
	struct wlr_xdg_popup *popup;
	struct wl_listener commit;
	struct wl_listener reposition;
	struct wl_listener destroy;
};

static struct fw_xdg_view *xdg_view(struct fw_view *view) {
	return wl_container_of(view, (struct fw_xdg_view *)NULL, view);
}

static void xdg_get_size(struct fw_view *view, int *width, int *height) {
	struct wlr_box box;
	wlr_xdg_surface_get_geometry(xdg_view(view)->toplevel->base, &box);
	*width = box.width;
	*height = box.height;
}

static void xdg_configure(
		struct fw_view *view, int x, int y, int width, int height) {
	if (width < 1 || height < 1) {
		return;
	}
	wlr_xdg_toplevel_set_size(xdg_view(view)->toplevel, width, height);
	fw_sched_note_window_event(view->server->sched, view->surface);
}

static void xdg_set_activated(struct fw_view *view, bool activated) {
	wlr_xdg_toplevel_set_activated(xdg_view(view)->toplevel, activated);
	fw_sched_note_window_event(view->server->sched, view->surface);
}

static void xdg_set_maximized(struct fw_view *view, bool maximized) {
	wlr_xdg_toplevel_set_maximized(xdg_view(view)->toplevel, maximized);
}

static void xdg_set_fullscreen(struct fw_view *view, bool fullscreen) {
	wlr_xdg_toplevel_set_fullscreen(xdg_view(view)->toplevel, fullscreen);
}

static void xdg_close(struct fw_view *view) {
	wlr_xdg_toplevel_send_close(xdg_view(view)->toplevel);
}

static const char *xdg_get_title(struct fw_view *view) {
	return xdg_view(view)->toplevel->title;
}

static const char *xdg_get_app_id(struct fw_view *view) {
	return xdg_view(view)->toplevel->app_id;
}

/* Its parent's view, where it is a modal dialog of a mapped parent. */
static struct fw_view *xdg_modal_parent(struct fw_view *view) {
	struct wlr_xdg_toplevel *toplevel = xdg_view(view)->toplevel;
	if (toplevel->parent == NULL ||
			!fw_dialog_is_modal(view->server->dialogs, toplevel)) {
		return NULL;
	}
	struct fw_view *parent;
	wl_list_for_each(parent, &view->server->views, link) {
		if (parent->type == FW_VIEW_XDG && parent->mapped &&
				xdg_view(parent)->toplevel == toplevel->parent) {
			return parent;
		}
	}
	return NULL;
}

static const struct fw_view_impl xdg_view_impl = {
		.get_size = xdg_get_size,
		.configure = xdg_configure,
		.set_activated = xdg_set_activated,
		.set_maximized = xdg_set_maximized,
		.set_fullscreen = xdg_set_fullscreen,
		.close = xdg_close,
		.get_title = xdg_get_title,
		.get_app_id = xdg_get_app_id,
		.modal_parent = xdg_modal_parent,
};

/*
 * The window geometry starts at the view's (0,0): wlroots' scene node for
 * an xdg surface already sits its surface at minus the geometry's offset,
 * so the content node itself stays at (0,0).
 *
 * A client that never set its window geometry has the bounds of its
 * surfaces for one: a subsurface that moves out past the main surface's
 * edge moves that geometry's origin. The main surface stays where it was
 * on screen then, and the view moves instead; a geometry the client set
 * is the client's to place.
 */
static void update_content_offset(struct fw_xdg_view *xdg) {
	struct wlr_xdg_surface *xdg_surface = xdg->toplevel->base;
	struct fw_view *view = &xdg->view;
	struct wlr_box box;
	wlr_xdg_surface_get_geometry(xdg_surface, &box);
	if (xdg->geo_known && view->mapped && !view->maximized &&
			!view->fullscreen &&
			wlr_box_empty(&xdg_surface->current.geometry) &&
			(box.x != xdg->last_geo_x || box.y != xdg->last_geo_y)) {
		fw_view_move(view, view->x + box.x - xdg->last_geo_x,
				view->y + box.y - xdg->last_geo_y);
	}
	xdg->last_geo_x = box.x;
	xdg->last_geo_y = box.y;
	xdg->geo_known = true;
	if (box.width != xdg->last_width || box.height != xdg->last_height) {
		xdg->last_width = box.width;
		xdg->last_height = box.height;
		fw_view_update_frame(&xdg->view);
	}
}

/*
 * The state a window asked for before it was mapped goes in a configure,
 * with the size it will have there (fw_view_plan_state); until its initial
 * commit, xdg-shell allows it none, and that commit gets the first.
 */
static void plan_requested_state(struct fw_xdg_view *xdg) {
	struct wlr_xdg_toplevel *toplevel = xdg->toplevel;
	xdg->view.decorated = fw_decoration_server_side(
			xdg->view.server, toplevel->base->surface);
	fw_view_plan_state(&xdg->view, toplevel->requested.maximized,
			toplevel->requested.fullscreen);
}

/*
 * xdg-shell 6's suspended state: a window that shows on no output (all of
 * it covered, off every output, or hidden under the lock) is told so, and
 * may stop drawing; told again once any of it shows.
 */
static void update_suspended(struct fw_xdg_view *xdg) {
	struct wlr_xdg_toplevel *toplevel = xdg->toplevel;
	if (xdg->buffer == NULL || !toplevel->base->initialized ||
			!toplevel->base->surface->mapped ||
			wl_resource_get_version(toplevel->resource) <
					XDG_TOPLEVEL_STATE_SUSPENDED_SINCE_VERSION) {
		return;
	}
	bool suspended = xdg->buffer->active_outputs == 0;
	if (toplevel->scheduled.suspended != suspended) {
		wlr_xdg_toplevel_set_suspended(toplevel, suspended);
	}
}

static void handle_output_enter(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, output_enter);
	update_suspended(xdg);
}

static void handle_output_leave(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, output_leave);
	update_suspended(xdg);
}

static void forget_buffer(struct fw_xdg_view *xdg) {
	fw_listener_disconnect(&xdg->output_enter);
	fw_listener_disconnect(&xdg->output_leave);
	fw_listener_disconnect(&xdg->buffer_destroy);
	xdg->buffer = NULL;
}

static void handle_buffer_destroy(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, buffer_destroy);
	forget_buffer(xdg);
}

struct find_buffer {
	struct wlr_surface *surface;
	struct wlr_scene_buffer *found;
};

static void find_surface_buffer(
		struct wlr_scene_buffer *buffer, int sx, int sy, void *data) {
	struct find_buffer *find = data;
	struct wlr_scene_surface *scene_surface =
			wlr_scene_surface_try_from_buffer(buffer);
	if (scene_surface != NULL && scene_surface->surface == find->surface) {
		find->found = buffer;
	}
}

/*
 * Follows the outputs the main surface shows on (update_suspended), from
 * its first map: the walk skips a disabled tree, as the view's is before.
 * The node lasts as long as the surface.
 */
static void watch_buffer(struct fw_xdg_view *xdg) {
	struct find_buffer find = {.surface = xdg->toplevel->base->surface};
	wlr_scene_node_for_each_buffer(
			&xdg->view.content->node, find_surface_buffer, &find);
	xdg->buffer = find.found;
	if (xdg->buffer == NULL) {
		return;
	}
	fw_listener_connect(&xdg->output_enter, &xdg->buffer->events.output_enter,
			handle_output_enter);
	fw_listener_connect(&xdg->output_leave, &xdg->buffer->events.output_leave,
			handle_output_leave);
	fw_listener_connect(&xdg->buffer_destroy, &xdg->buffer->node.events.destroy,
			handle_buffer_destroy);
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, map);
	update_content_offset(xdg);
	struct wlr_xdg_toplevel *toplevel = xdg->toplevel;
	xdg->view.decorated = fw_decoration_server_side(
			xdg->view.server, toplevel->base->surface);
	fw_view_map(&xdg->view, toplevel->base->surface, xdg->view.content, true);
	if (xdg->buffer == NULL) {
		watch_buffer(xdg);
	}
	/* Requests made before mapping are honoured now. */
	if (toplevel->requested.fullscreen) {
		fw_view_fullscreen(&xdg->view, true);
	} else if (toplevel->requested.maximized) {
		fw_view_maximize(&xdg->view, true);
	}
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, unmap);
	fw_view_unmap(&xdg->view);
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, commit);
	struct wlr_xdg_surface *xdg_surface = xdg->toplevel->base;
	if (xdg_surface->initial_commit) {
		struct wlr_xdg_toplevel *toplevel = xdg->toplevel;
		/* What fairway does of what a client may ask: no window menu,
		 * no minimizing (xdg-shell 5). */
		if (wl_resource_get_version(toplevel->resource) >=
				XDG_TOPLEVEL_WM_CAPABILITIES_SINCE_VERSION) {
			wlr_xdg_toplevel_set_wm_capabilities(toplevel,
					WLR_XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE |
							WLR_XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN);
		}
		if (toplevel->requested.maximized || toplevel->requested.fullscreen) {
			plan_requested_state(xdg);
		} else {
			/* No size: the client chooses its own. */
			wlr_xdg_surface_schedule_configure(xdg_surface);
		}
		return;
	}
	if (!xdg_surface->surface->mapped) {
		return;
	}
	struct fw_server *server = xdg->view.server;
	/* Resizing from the left or top keeps the opposite edge in place. */
	if (server->grab.view == &xdg->view) {
		struct wlr_box box;
		wlr_xdg_surface_get_geometry(xdg_surface, &box);
		int x, y;
		if (fw_grab_resize_origin(
					server, &xdg->view, box.width, box.height, &x, &y) &&
				(x != xdg->view.x || y != xdg->view.y)) {
			fw_view_move(&xdg->view, x, y);
		}
	}
	update_content_offset(xdg);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, destroy);
	forget_buffer(xdg);
	fw_listener_disconnect(&xdg->map);
	fw_listener_disconnect(&xdg->unmap);
	fw_listener_disconnect(&xdg->destroy);
	fw_listener_disconnect(&xdg->commit);
	fw_listener_disconnect(&xdg->request_move);
	fw_listener_disconnect(&xdg->request_resize);
	fw_listener_disconnect(&xdg->request_maximize);
	fw_listener_disconnect(&xdg->request_fullscreen);
	fw_listener_disconnect(&xdg->set_title);
	fw_listener_disconnect(&xdg->set_app_id);
	/* The xdg_surface can outlive its toplevel; its popups find no tree. */
	xdg->toplevel->base->data = NULL;
	fw_view_finish(&xdg->view);
	free(xdg);
}

static void handle_request_move(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, request_move);
	fw_view_begin_interactive(&xdg->view, FW_GRAB_MOVE, 0);
}

static void handle_request_resize(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, request_resize);
	struct wlr_xdg_toplevel_resize_event *event = data;
	fw_view_begin_interactive(&xdg->view, FW_GRAB_RESIZE, event->edges);
}

static void handle_request_maximize(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, request_maximize);
	struct wlr_xdg_surface *xdg_surface = xdg->toplevel->base;
	if (!xdg_surface->initialized) {
		/* The initial commit answers (handle_commit). */
		return;
	}
	if (!xdg_surface->surface->mapped) {
		/* Applied at map time; the configure tells the size. */
		plan_requested_state(xdg);
		return;
	}
	fw_view_maximize(&xdg->view, xdg->toplevel->requested.maximized);
}

static void handle_request_fullscreen(
		struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg =
			wl_container_of(listener, xdg, request_fullscreen);
	struct wlr_xdg_surface *xdg_surface = xdg->toplevel->base;
	if (!xdg_surface->initialized) {
		return;
	}
	if (!xdg_surface->surface->mapped) {
		plan_requested_state(xdg);
		return;
	}
	fw_view_fullscreen(&xdg->view, xdg->toplevel->requested.fullscreen);
}

static void handle_set_title(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, set_title);
	fw_view_update_title(&xdg->view);
}

static void handle_set_app_id(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, set_app_id);
	fw_view_update_title(&xdg->view);
}

/* The view whose window owns this popup chain, or NULL (layer shell). */
static struct fw_view *popup_root_view(struct wlr_xdg_popup *popup) {
	struct wlr_surface *parent = popup->parent;
	struct wlr_xdg_surface *parent_xdg;
	while (parent != NULL &&
			(parent_xdg = wlr_xdg_surface_try_from_wlr_surface(parent)) !=
					NULL) {
		if (parent_xdg->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
			struct wlr_scene_tree *content = parent_xdg->data;
			return content != NULL && content->node.parent != NULL
					? content->node.parent->node.data
					: NULL;
		}
		if (parent_xdg->role != WLR_XDG_SURFACE_ROLE_POPUP ||
				parent_xdg->popup == NULL) {
			return NULL;
		}
		parent = parent_xdg->popup->parent;
	}
	return NULL;
}

/*
 * Keeps the popup on the output of the window or layer surface it belongs
 * to, as far as its positioner lets it move; the configure that follows
 * tells it where it goes.
 */
static void unconstrain_popup(
		struct fw_server *server, struct wlr_xdg_popup *popup) {
	/* The box is in the coordinates of the root of the popup chain: the
	 * toplevel's surface, or the layer surface. */
	struct wlr_box box;
	if (fw_layer_shell_popup_box(popup, &box)) {
		wlr_xdg_popup_unconstrain_from_box(popup, &box);
		return;
	}
	struct fw_view *view = popup_root_view(popup);
	struct fw_output *output = NULL;
	if (view != NULL) {
		output = fw_output_at(server, view->x, view->y);
		if (output == NULL) {
			output = fw_output_focused(server);
		}
	}
	if (output == NULL) {
		wlr_xdg_surface_schedule_configure(popup->base);
		return;
	}
	/* The view is where its window geometry starts; the toplevel's
	 * surface, whose coordinates the box is in, is the geometry's offset
	 * up and left of it (a client's shadow). */
	struct wlr_box geometry;
	wlr_xdg_surface_get_geometry(xdg_view(view)->toplevel->base, &geometry);
	fw_output_box(output, &box);
	box.x += geometry.x - view->x;
	box.y += geometry.y - view->y;
	wlr_xdg_popup_unconstrain_from_box(popup, &box);
}

static void handle_popup_commit(struct wl_listener *listener, void *data) {
	struct fw_xdg_popup *popup = wl_container_of(listener, popup, commit);
	if (popup->popup->base->initial_commit) {
		unconstrain_popup(popup->server, popup->popup);
	}
}

/* xdg_popup.reposition (xdg-shell 3): placed again by its new rules. */
static void handle_popup_reposition(struct wl_listener *listener, void *data) {
	struct fw_xdg_popup *popup = wl_container_of(listener, popup, reposition);
	unconstrain_popup(popup->server, popup->popup);
}

static void handle_popup_destroy(struct wl_listener *listener, void *data) {
	struct fw_xdg_popup *popup = wl_container_of(listener, popup, destroy);
	fw_listener_disconnect(&popup->commit);
	fw_listener_disconnect(&popup->reposition);
	fw_listener_disconnect(&popup->destroy);
	free(popup);
}

static void handle_new_xdg_popup(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, new_xdg_popup);
	struct wlr_xdg_popup *wlr_popup = data;
	struct fw_xdg_popup *popup = calloc(1, sizeof(*popup));
	if (popup == NULL) {
		wl_resource_post_no_memory(wlr_popup->resource);
		return;
	}
	popup->server = server;
	popup->popup = wlr_popup;
	fw_listener_connect(&popup->commit,
			&wlr_popup->base->surface->events.commit, handle_popup_commit);
	fw_listener_connect(&popup->reposition, &wlr_popup->events.reposition,
			handle_popup_reposition);
	fw_listener_connect(
			&popup->destroy, &wlr_popup->events.destroy, handle_popup_destroy);

	/* A layer surface's popup gets its parent later, and its scene tree
	 * there (layer_shell.c). */
	struct wlr_xdg_surface *parent_xdg = wlr_popup->parent != NULL
			? wlr_xdg_surface_try_from_wlr_surface(wlr_popup->parent)
			: NULL;
	struct wlr_scene_tree *parent_tree =
			parent_xdg != NULL ? parent_xdg->data : NULL;
	if (parent_tree == NULL) {
		return;
	}
	/* The tree goes with the popup's xdg_surface. */
	struct wlr_scene_tree *tree =
			wlr_scene_xdg_surface_create(parent_tree, wlr_popup->base);
	if (tree == NULL) {
		wl_resource_post_no_memory(wlr_popup->resource);
		return;
	}
	wlr_popup->base->data = tree;
}

static void handle_new_xdg_toplevel(struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, new_xdg_toplevel);
	struct wlr_xdg_toplevel *toplevel = data;

	struct fw_xdg_view *xdg = calloc(1, sizeof(*xdg));
	if (xdg == NULL) {
		wl_resource_post_no_memory(toplevel->resource);
		return;
	}
	if (!fw_view_init(&xdg->view, FW_VIEW_XDG, &xdg_view_impl, server)) {
		free(xdg);
		wl_resource_post_no_memory(toplevel->resource);
		return;
	}
	xdg->toplevel = toplevel;
	xdg->view.content =
			wlr_scene_xdg_surface_create(xdg->view.tree, toplevel->base);
	if (xdg->view.content == NULL) {
		fw_view_finish(&xdg->view);
		free(xdg);
		wl_resource_post_no_memory(toplevel->resource);
		return;
	}
	toplevel->base->data = xdg->view.content;

	struct wlr_surface *surface = toplevel->base->surface;
	fw_listener_connect(&xdg->map, &surface->events.map, handle_map);
	fw_listener_connect(&xdg->unmap, &surface->events.unmap, handle_unmap);
	fw_listener_connect(&xdg->commit, &surface->events.commit, handle_commit);
	fw_listener_connect(
			&xdg->destroy, &toplevel->events.destroy, handle_destroy);
	fw_listener_connect(&xdg->request_move, &toplevel->events.request_move,
			handle_request_move);
	fw_listener_connect(&xdg->request_resize, &toplevel->events.request_resize,
			handle_request_resize);
	fw_listener_connect(&xdg->request_maximize,
			&toplevel->events.request_maximize, handle_request_maximize);
	fw_listener_connect(&xdg->request_fullscreen,
			&toplevel->events.request_fullscreen, handle_request_fullscreen);
	fw_listener_connect(
			&xdg->set_title, &toplevel->events.set_title, handle_set_title);
	fw_listener_connect(
			&xdg->set_app_id, &toplevel->events.set_app_id, handle_set_app_id);
}

bool fw_xdg_shell_init(struct fw_server *server) {
	/* The newest wlroots 0.18 has: popups placed again (3), the bounds
	 * (4, unsent: a window's size is its own until fairway fits it),
	 * capabilities (5), suspended (6). */
	server->xdg_shell = wlr_xdg_shell_create(server->display, 6);
	server->dialogs = fw_dialog_create(server);
	if (server->xdg_shell == NULL || server->dialogs == NULL) {
		return false;
	}
	fw_listener_connect(&server->new_xdg_toplevel,
			&server->xdg_shell->events.new_toplevel, handle_new_xdg_toplevel);
	fw_listener_connect(&server->new_xdg_popup,
			&server->xdg_shell->events.new_popup, handle_new_xdg_popup);
	return true;
}

void fw_xdg_shell_finish(struct fw_server *server) {
	fw_listener_disconnect(&server->new_xdg_toplevel);
	fw_listener_disconnect(&server->new_xdg_popup);
	fw_dialog_destroy(server->dialogs);
	server->dialogs = NULL;
}
