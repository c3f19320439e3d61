#include "compositor/shell/xdg_shell.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/decoration.h"
#include "compositor/shell/view.h"
#include <stdlib.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

struct fw_xdg_view {
	struct fw_view view;
	struct wlr_xdg_surface *xdg_surface;
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
	struct wl_listener set_parent;
};

struct fw_xdg_popup {
	struct wlr_xdg_surface *xdg_surface;
	struct wl_listener destroy;
};

static struct fw_xdg_view *xdg_view(struct fw_view *view) {
	return wl_container_of(view, (struct fw_xdg_view *)NULL, view);
}

static void xdg_get_size(struct fw_view *view, int *width, int *height) {
	struct wlr_box box;
	wlr_xdg_surface_get_geometry(xdg_view(view)->xdg_surface, &box);
	*width = box.width;
	*height = box.height;
}

static void xdg_configure(
		struct fw_view *view, int x, int y, int width, int height) {
	if (width < 1 || height < 1) {
		return;
	}
	wlr_xdg_toplevel_set_size(
			xdg_view(view)->xdg_surface, (uint32_t)width, (uint32_t)height);
	fw_sched_note_window_event(view->server->sched, view->surface);
}

static void xdg_set_activated(struct fw_view *view, bool activated) {
	wlr_xdg_toplevel_set_activated(xdg_view(view)->xdg_surface, activated);
	fw_sched_note_window_event(view->server->sched, view->surface);
}

static void xdg_set_maximized(struct fw_view *view, bool maximized) {
	wlr_xdg_toplevel_set_maximized(xdg_view(view)->xdg_surface, maximized);
}

static void xdg_set_fullscreen(struct fw_view *view, bool fullscreen) {
	wlr_xdg_toplevel_set_fullscreen(xdg_view(view)->xdg_surface, fullscreen);
}

static void xdg_close(struct fw_view *view) {
	wlr_xdg_toplevel_send_close(xdg_view(view)->xdg_surface);
}

static const char *xdg_get_title(struct fw_view *view) {
	return xdg_view(view)->xdg_surface->toplevel->title;
}

static const char *xdg_get_app_id(struct fw_view *view) {
	return xdg_view(view)->xdg_surface->toplevel->app_id;
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
	struct wlr_xdg_surface *xdg_surface = xdg->xdg_surface;
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

static void handle_map(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, map);
	update_content_offset(xdg);
	struct wlr_xdg_toplevel *toplevel = xdg->xdg_surface->toplevel;
	xdg->view.decorated = fw_decoration_server_side(
			xdg->view.server, xdg->xdg_surface->surface);
	fw_view_map(&xdg->view, xdg->xdg_surface->surface, xdg->view.content, true);
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
	if (!xdg->xdg_surface->mapped) {
		return;
	}
	struct fw_server *server = xdg->view.server;
	/* Resizing from the left or top keeps the opposite edge in place. */
	if (server->grab.view == &xdg->view) {
		struct wlr_box box;
		wlr_xdg_surface_get_geometry(xdg->xdg_surface, &box);
		int x, y;
		if (fw_cursor_resize_origin(
					server, &xdg->view, box.width, box.height, &x, &y) &&
				(x != xdg->view.x || y != xdg->view.y)) {
			fw_view_move(&xdg->view, x, y);
		}
	}
	update_content_offset(xdg);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, destroy);
	wl_list_remove(&xdg->map.link);
	wl_list_remove(&xdg->unmap.link);
	wl_list_remove(&xdg->destroy.link);
	wl_list_remove(&xdg->commit.link);
	wl_list_remove(&xdg->request_move.link);
	wl_list_remove(&xdg->request_resize.link);
	wl_list_remove(&xdg->request_maximize.link);
	wl_list_remove(&xdg->request_fullscreen.link);
	wl_list_remove(&xdg->set_title.link);
	wl_list_remove(&xdg->set_app_id.link);
	wl_list_remove(&xdg->set_parent.link);
	fw_view_finish(&xdg->view);
	free(xdg);
}

static void handle_request_move(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, request_move);
	fw_view_begin_interactive(&xdg->view, FW_CURSOR_MOVE, 0);
}

static void handle_request_resize(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, request_resize);
	struct wlr_xdg_toplevel_resize_event *event = data;
	fw_view_begin_interactive(&xdg->view, FW_CURSOR_RESIZE, event->edges);
}

static void handle_request_maximize(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, request_maximize);
	if (!xdg->xdg_surface->mapped) {
		/* Applied at map time; the initial configure tells the size. */
		struct wlr_xdg_toplevel *toplevel = xdg->xdg_surface->toplevel;
		xdg->view.decorated = fw_decoration_server_side(
				xdg->view.server, xdg->xdg_surface->surface);
		fw_view_plan_state(&xdg->view, toplevel->requested.maximized,
				toplevel->requested.fullscreen);
		return;
	}
	fw_view_maximize(
			&xdg->view, xdg->xdg_surface->toplevel->requested.maximized);
}

static void handle_request_fullscreen(
		struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg =
			wl_container_of(listener, xdg, request_fullscreen);
	if (!xdg->xdg_surface->mapped) {
		struct wlr_xdg_toplevel *toplevel = xdg->xdg_surface->toplevel;
		xdg->view.decorated = fw_decoration_server_side(
				xdg->view.server, xdg->xdg_surface->surface);
		fw_view_plan_state(&xdg->view, toplevel->requested.maximized,
				toplevel->requested.fullscreen);
		return;
	}
	fw_view_fullscreen(
			&xdg->view, xdg->xdg_surface->toplevel->requested.fullscreen);
}

static void handle_set_title(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, set_title);
	fw_view_update_title(&xdg->view);
}

static void handle_set_app_id(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, set_app_id);
	fw_view_update_title(&xdg->view);
}

/*
 * wlroots' xdg_toplevel_handle_set_parent takes the toplevel itself or one
 * of its descendants as its parent. A toplevel that is its own ancestor
 * loops wlroots' parent_unmap handling for ever, so the parent is undone
 * before anything can walk it, and the client gets its error.
 */
static void handle_set_parent(struct wl_listener *listener, void *data) {
	struct fw_xdg_view *xdg = wl_container_of(listener, xdg, set_parent);
	struct wlr_xdg_surface *xdg_surface = xdg->xdg_surface;
	struct wlr_xdg_surface *ancestor = xdg_surface->toplevel->parent;
	while (ancestor != NULL && ancestor != xdg_surface) {
		ancestor = ancestor->toplevel->parent;
	}
	if (ancestor == NULL) {
		return;
	}
	wlr_xdg_toplevel_set_parent(xdg_surface, NULL);
	wl_resource_post_error(xdg_surface->toplevel->resource,
			XDG_TOPLEVEL_ERROR_INVALID_PARENT,
			"a toplevel cannot be its own parent or ancestor");
}

static void handle_popup_destroy(struct wl_listener *listener, void *data) {
	struct fw_xdg_popup *popup = wl_container_of(listener, popup, destroy);
	wl_list_remove(&popup->destroy.link);
	free(popup);
}

/* The view whose window owns this popup chain, or NULL (layer shell). */
static struct fw_view *popup_root_view(struct wlr_xdg_surface *xdg_surface) {
	struct wlr_surface *parent = xdg_surface->popup->parent;
	while (parent != NULL && wlr_surface_is_xdg_surface(parent)) {
		struct wlr_xdg_surface *parent_xdg =
				wlr_xdg_surface_from_wlr_surface(parent);
		if (parent_xdg->role == WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
			struct wlr_scene_node *content = parent_xdg->data;
			return content != NULL && content->parent != NULL
					? content->parent->data
					: NULL;
		}
		if (parent_xdg->role != WLR_XDG_SURFACE_ROLE_POPUP) {
			return NULL;
		}
		parent = parent_xdg->popup->parent;
	}
	return NULL;
}

static void create_popup(
		struct fw_server *server, struct wlr_xdg_surface *xdg_surface) {
	struct wlr_surface *parent = xdg_surface->popup->parent;
	/* Layer-shell popups get their parent later (layer_shell.c). */
	if (parent == NULL || !wlr_surface_is_xdg_surface(parent)) {
		return;
	}
	struct wlr_xdg_surface *parent_xdg =
			wlr_xdg_surface_from_wlr_surface(parent);
	struct wlr_scene_node *parent_node = parent_xdg->data;
	if (parent_node == NULL) {
		return;
	}
	struct fw_xdg_popup *popup = calloc(1, sizeof(*popup));
	if (popup == NULL) {
		return;
	}
	struct wlr_scene_node *node =
			wlr_scene_xdg_surface_create(parent_node, xdg_surface);
	if (node == NULL) {
		free(popup);
		return;
	}
	xdg_surface->data = node;
	popup->xdg_surface = xdg_surface;
	fw_listener_connect(&popup->destroy, &xdg_surface->events.destroy,
			handle_popup_destroy);

	struct fw_view *view = popup_root_view(xdg_surface);
	if (view == NULL) {
		return;
	}
	struct fw_output *output = fw_output_at(server, view->x, view->y);
	if (output == NULL) {
		output = fw_output_focused(server);
	}
	if (output == NULL) {
		return;
	}
	/* The box is in the toplevel's window-geometry coordinates. */
	struct wlr_box box;
	fw_output_box(output, &box);
	box.x -= view->x;
	box.y -= view->y;
	wlr_xdg_popup_unconstrain_from_box(xdg_surface->popup, &box);
}

static void handle_new_xdg_surface(struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, new_xdg_surface);
	struct wlr_xdg_surface *xdg_surface = data;

	if (xdg_surface->role == WLR_XDG_SURFACE_ROLE_POPUP) {
		create_popup(server, xdg_surface);
		return;
	}
	if (xdg_surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) {
		return;
	}

	struct fw_xdg_view *xdg = calloc(1, sizeof(*xdg));
	if (xdg == NULL) {
		return;
	}
	if (!fw_view_init(&xdg->view, FW_VIEW_XDG, &xdg_view_impl, server)) {
		free(xdg);
		return;
	}
	xdg->xdg_surface = xdg_surface;
	xdg->view.content =
			wlr_scene_xdg_surface_create(&xdg->view.tree->node, xdg_surface);
	if (xdg->view.content == NULL) {
		fw_view_finish(&xdg->view);
		free(xdg);
		return;
	}
	xdg_surface->data = xdg->view.content;

	fw_listener_connect(&xdg->map, &xdg_surface->events.map, handle_map);
	fw_listener_connect(&xdg->unmap, &xdg_surface->events.unmap, handle_unmap);
	fw_listener_connect(
			&xdg->destroy, &xdg_surface->events.destroy, handle_destroy);
	fw_listener_connect(
			&xdg->commit, &xdg_surface->surface->events.commit, handle_commit);

	struct wlr_xdg_toplevel *toplevel = xdg_surface->toplevel;
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
	fw_listener_connect(
			&xdg->set_parent, &toplevel->events.set_parent, handle_set_parent);
	/*
	 * wlroots 0.15 announces the surface at its first commit: what it
	 * asked for before then is answered in the configure that commit
	 * gets.
	 */
	if (toplevel->requested.maximized || toplevel->requested.fullscreen) {
		xdg->view.decorated =
				fw_decoration_server_side(server, xdg_surface->surface);
		fw_view_plan_state(&xdg->view, toplevel->requested.maximized,
				toplevel->requested.fullscreen);
	}
}

bool fw_xdg_shell_init(struct fw_server *server) {
	server->xdg_shell = wlr_xdg_shell_create(server->display);
	if (server->xdg_shell == NULL) {
		return false;
	}
	fw_listener_connect(&server->new_xdg_surface,
			&server->xdg_shell->events.new_surface, handle_new_xdg_surface);
	return true;
}

void fw_xdg_shell_finish(struct fw_server *server) {
	fw_listener_disconnect(&server->new_xdg_surface);
}
