#include "compositor/shell/xwayland.h"
#include "compositor/input/seat.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/sched/client.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/kill_timer.h"
#include "compositor/shell/view.h"
#include "scheduler/sched_clock.h"
#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>
#include <wlr/xcursor.h>
#include <wlr/xwayland.h>
#include <xcb/xproto.h>

/* A managed X11 window: framed, focusable, in the focus order. */
struct fw_xwayland_view {
	struct fw_view view;
	struct wlr_xwayland_surface *xsurface;

	/* xsurface->surface is there from associate to dissociate; map, unmap
	 * and commit are its signals. */
	struct wl_listener associate;
	struct wl_listener dissociate;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
	struct wl_listener commit;
	struct wl_listener request_configure;
	struct wl_listener request_move;
	struct wl_listener request_resize;
	struct wl_listener request_maximize;
	struct wl_listener request_fullscreen;
	struct wl_listener request_activate;
	struct wl_listener set_title;
	struct wl_listener set_class;
	struct wl_listener set_decorations;
};

/* An override-redirect window (menus, tooltips): placed where X says. */
struct fw_xwayland_unmanaged {
	struct fw_server *server;
	struct wlr_xwayland_surface *xsurface;
	struct wlr_scene_tree *tree;

	struct wl_listener associate;
	struct wl_listener dissociate;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener destroy;
	struct wl_listener set_geometry;
};

static struct fw_xwayland_view *xwl_view(struct fw_view *view) {
	return wl_container_of(view, (struct fw_xwayland_view *)NULL, view);
}

static void xwl_get_size(struct fw_view *view, int *width, int *height) {
	struct wlr_xwayland_surface *xsurface = xwl_view(view)->xsurface;
	*width = xsurface->width;
	*height = xsurface->height;
}

static void xwl_configure(
		struct fw_view *view, int x, int y, int width, int height) {
	if (width < 1 || height < 1) {
		return;
	}
	wlr_xwayland_surface_configure(xwl_view(view)->xsurface, (int16_t)x,
			(int16_t)y, (uint16_t)width, (uint16_t)height);
	fw_sched_note_window_event(view->server->sched, view->surface);
}

static void xwl_set_activated(struct fw_view *view, bool activated) {
	struct wlr_xwayland_surface *xsurface = xwl_view(view)->xsurface;
	wlr_xwayland_surface_activate(xsurface, activated);
	if (activated) {
		wlr_xwayland_surface_restack(xsurface, NULL, XCB_STACK_MODE_ABOVE);
	}
	fw_sched_note_window_event(view->server->sched, view->surface);
}

static void xwl_set_maximized(struct fw_view *view, bool maximized) {
	wlr_xwayland_surface_set_maximized(xwl_view(view)->xsurface, maximized);
}

static void xwl_set_fullscreen(struct fw_view *view, bool fullscreen) {
	wlr_xwayland_surface_set_fullscreen(xwl_view(view)->xsurface, fullscreen);
}

static void xwl_close(struct fw_view *view) {
	wlr_xwayland_surface_close(xwl_view(view)->xsurface);
}

static const char *xwl_get_title(struct fw_view *view) {
	return xwl_view(view)->xsurface->title;
}

static const char *xwl_get_app_id(struct fw_view *view) {
	return xwl_view(view)->xsurface->class;
}

static const struct fw_view_impl xwl_view_impl = {
		.get_size = xwl_get_size,
		.configure = xwl_configure,
		.set_activated = xwl_set_activated,
		.set_maximized = xwl_set_maximized,
		.set_fullscreen = xwl_set_fullscreen,
		.close = xwl_close,
		.get_title = xwl_get_title,
		.get_app_id = xwl_get_app_id,
};

/* An X window is framed unless its Motif hints ask for no decorations. */
static bool wants_frame(struct wlr_xwayland_surface *xsurface) {
	return xsurface->decorations == WLR_XWAYLAND_SURFACE_DECORATIONS_ALL;
}

static void handle_set_decorations(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl =
			wl_container_of(listener, xwl, set_decorations);
	fw_view_set_decorated(&xwl->view, wants_frame(xwl->xsurface));
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, commit);
	/* The X window size changes with its buffer: keep the frame around it. */
	fw_view_update_frame(&xwl->view);
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, map);
	struct wlr_xwayland_surface *xsurface = xwl->xsurface;
	struct wlr_scene_tree *content =
			wlr_scene_subsurface_tree_create(xwl->view.tree, xsurface->surface);
	if (content == NULL) {
		return;
	}
	fw_listener_connect(
			&xwl->commit, &xsurface->surface->events.commit, handle_commit);
	xwl->view.decorated = wants_frame(xsurface);
	fw_view_map(&xwl->view, xsurface->surface, content, true);
	if (xsurface->fullscreen) {
		fw_view_fullscreen(&xwl->view, true);
	}
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, unmap);
	if (!xwl->view.mapped) {
		return;
	}
	fw_listener_disconnect(&xwl->commit);
	fw_view_unmap(&xwl->view);
	/* The surface may go with the mapping; so does its scene tree. */
	wlr_scene_node_destroy(&xwl->view.content->node);
	xwl->view.content = NULL;
}

static void handle_associate(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, associate);
	struct wlr_surface *surface = xwl->xsurface->surface;
	fw_listener_connect(&xwl->map, &surface->events.map, handle_map);
	fw_listener_connect(&xwl->unmap, &surface->events.unmap, handle_unmap);
	/* Xwayland may commit the window's first buffer before the window
	 * manager pairs the surface with its window: the surface is mapped
	 * already, and no map event is coming. */
	if (surface->mapped) {
		handle_map(&xwl->map, NULL);
	}
}

static void handle_dissociate(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, dissociate);
	/* wlroots unmapped the surface first. */
	fw_listener_disconnect(&xwl->map);
	fw_listener_disconnect(&xwl->unmap);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, destroy);
	if (xwl->view.mapped) {
		handle_unmap(&xwl->unmap, NULL);
	}
	fw_listener_disconnect(&xwl->associate);
	fw_listener_disconnect(&xwl->dissociate);
	fw_listener_disconnect(&xwl->map);
	fw_listener_disconnect(&xwl->unmap);
	fw_listener_disconnect(&xwl->commit);
	fw_listener_disconnect(&xwl->destroy);
	fw_listener_disconnect(&xwl->request_configure);
	fw_listener_disconnect(&xwl->request_move);
	fw_listener_disconnect(&xwl->request_resize);
	fw_listener_disconnect(&xwl->request_maximize);
	fw_listener_disconnect(&xwl->request_fullscreen);
	fw_listener_disconnect(&xwl->request_activate);
	fw_listener_disconnect(&xwl->set_title);
	fw_listener_disconnect(&xwl->set_class);
	fw_listener_disconnect(&xwl->set_decorations);
	xwl->xsurface->data = NULL;
	fw_view_finish(&xwl->view);
	free(xwl);
}

static void handle_request_configure(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl =
			wl_container_of(listener, xwl, request_configure);
	struct wlr_xwayland_surface_configure_event *event = data;
	if (!xwl->view.mapped) {
		/* The size it asks for, no larger than what fits on screen. */
		int width = event->width, height = event->height;
		struct fw_output *output = fw_output_focused(xwl->view.server);
		if (output != NULL) {
			xwl->view.decorated = wants_frame(xwl->xsurface);
			int max_width, max_height;
			fw_view_max_size(&xwl->view, output, &max_width, &max_height);
			if (max_width > 0 && width > max_width) {
				width = max_width;
			}
			if (max_height > 0 && height > max_height) {
				height = max_height;
			}
		}
		wlr_xwayland_surface_configure(
				xwl->xsurface, event->x, event->y, width, height);
		return;
	}
	/* Mapped windows may resize themselves but we keep their place. */
	if (xwl->view.maximized || xwl->view.fullscreen) {
		int width, height;
		xwl_get_size(&xwl->view, &width, &height);
		xwl_configure(&xwl->view, xwl->view.x, xwl->view.y, width, height);
		return;
	}
	xwl_configure(
			&xwl->view, xwl->view.x, xwl->view.y, event->width, event->height);
}

static void handle_request_move(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, request_move);
	fw_view_begin_interactive(&xwl->view, FW_GRAB_MOVE, 0);
}

static void handle_request_resize(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl =
			wl_container_of(listener, xwl, request_resize);
	struct wlr_xwayland_resize_event *event = data;
	fw_view_begin_interactive(&xwl->view, FW_GRAB_RESIZE, event->edges);
}

static void handle_request_maximize(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl =
			wl_container_of(listener, xwl, request_maximize);
	struct wlr_xwayland_surface *xsurface = xwl->xsurface;
	fw_view_maximize(
			&xwl->view, xsurface->maximized_horz || xsurface->maximized_vert);
}

static void handle_request_fullscreen(
		struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl =
			wl_container_of(listener, xwl, request_fullscreen);
	fw_view_fullscreen(&xwl->view, xwl->xsurface->fullscreen);
}

static void handle_request_activate(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl =
			wl_container_of(listener, xwl, request_activate);
	fw_view_focus(&xwl->view);
}

static void handle_set_title(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, set_title);
	fw_view_update_title(&xwl->view);
}

static void handle_set_class(struct wl_listener *listener, void *data) {
	struct fw_xwayland_view *xwl = wl_container_of(listener, xwl, set_class);
	fw_view_update_title(&xwl->view);
}

static void create_view(
		struct fw_server *server, struct wlr_xwayland_surface *xsurface) {
	struct fw_xwayland_view *xwl = calloc(1, sizeof(*xwl));
	if (xwl == NULL) {
		return;
	}
	if (!fw_view_init(&xwl->view, FW_VIEW_XWAYLAND, &xwl_view_impl, server)) {
		free(xwl);
		return;
	}
	xwl->xsurface = xsurface;
	xsurface->data = xwl;

	fw_listener_connect(
			&xwl->associate, &xsurface->events.associate, handle_associate);
	fw_listener_connect(
			&xwl->dissociate, &xsurface->events.dissociate, handle_dissociate);
	fw_listener_connect(
			&xwl->destroy, &xsurface->events.destroy, handle_destroy);
	fw_listener_connect(&xwl->request_configure,
			&xsurface->events.request_configure, handle_request_configure);
	fw_listener_connect(&xwl->request_move, &xsurface->events.request_move,
			handle_request_move);
	fw_listener_connect(&xwl->request_resize, &xsurface->events.request_resize,
			handle_request_resize);
	fw_listener_connect(&xwl->request_maximize,
			&xsurface->events.request_maximize, handle_request_maximize);
	fw_listener_connect(&xwl->request_fullscreen,
			&xsurface->events.request_fullscreen, handle_request_fullscreen);
	fw_listener_connect(&xwl->request_activate,
			&xsurface->events.request_activate, handle_request_activate);
	fw_listener_connect(
			&xwl->set_title, &xsurface->events.set_title, handle_set_title);
	fw_listener_connect(
			&xwl->set_class, &xsurface->events.set_class, handle_set_class);
	fw_listener_connect(&xwl->set_decorations,
			&xsurface->events.set_decorations, handle_set_decorations);
}

static void unmanaged_map(struct wl_listener *listener, void *data) {
	struct fw_xwayland_unmanaged *unmanaged =
			wl_container_of(listener, unmanaged, map);
	struct wlr_xwayland_surface *xsurface = unmanaged->xsurface;
	struct fw_server *server = unmanaged->server;
	unmanaged->tree = wlr_scene_subsurface_tree_create(
			server->layers[FW_LAYER_POPUPS], xsurface->surface);
	if (unmanaged->tree == NULL) {
		return;
	}
	wlr_scene_node_set_position(
			&unmanaged->tree->node, xsurface->x, xsurface->y);
	if (wlr_xwayland_or_surface_wants_focus(xsurface)) {
		fw_seat_focus_surface(server, xsurface->surface);
	}
}

static void unmanaged_unmap(struct wl_listener *listener, void *data) {
	struct fw_xwayland_unmanaged *unmanaged =
			wl_container_of(listener, unmanaged, unmap);
	struct fw_server *server = unmanaged->server;
	if (unmanaged->tree != NULL) {
		wlr_scene_node_destroy(&unmanaged->tree->node);
		unmanaged->tree = NULL;
	}
	if (server->seat->keyboard_state.focused_surface ==
			unmanaged->xsurface->surface) {
		/* Give the keyboard back to the window that had it. */
		struct fw_view *view = NULL;
		if (!wl_list_empty(&server->views)) {
			view = wl_container_of(server->views.next, view, link);
		}
		if (view != NULL && view->mapped) {
			fw_view_focus(view);
		} else {
			fw_seat_focus_surface(server, NULL);
		}
	}
}

static void unmanaged_set_geometry(struct wl_listener *listener, void *data) {
	struct fw_xwayland_unmanaged *unmanaged =
			wl_container_of(listener, unmanaged, set_geometry);
	if (unmanaged->tree != NULL) {
		wlr_scene_node_set_position(&unmanaged->tree->node,
				unmanaged->xsurface->x, unmanaged->xsurface->y);
	}
}

static void unmanaged_associate(struct wl_listener *listener, void *data) {
	struct fw_xwayland_unmanaged *unmanaged =
			wl_container_of(listener, unmanaged, associate);
	struct wlr_surface *surface = unmanaged->xsurface->surface;
	fw_listener_connect(&unmanaged->map, &surface->events.map, unmanaged_map);
	fw_listener_connect(
			&unmanaged->unmap, &surface->events.unmap, unmanaged_unmap);
	/* Mapped before it was paired with its window (handle_associate). */
	if (surface->mapped) {
		unmanaged_map(&unmanaged->map, NULL);
	}
}

static void unmanaged_dissociate(struct wl_listener *listener, void *data) {
	struct fw_xwayland_unmanaged *unmanaged =
			wl_container_of(listener, unmanaged, dissociate);
	fw_listener_disconnect(&unmanaged->map);
	fw_listener_disconnect(&unmanaged->unmap);
}

static void unmanaged_destroy(struct wl_listener *listener, void *data) {
	struct fw_xwayland_unmanaged *unmanaged =
			wl_container_of(listener, unmanaged, destroy);
	if (unmanaged->tree != NULL) {
		unmanaged_unmap(&unmanaged->unmap, NULL);
	}
	fw_listener_disconnect(&unmanaged->associate);
	fw_listener_disconnect(&unmanaged->dissociate);
	fw_listener_disconnect(&unmanaged->map);
	fw_listener_disconnect(&unmanaged->unmap);
	fw_listener_disconnect(&unmanaged->destroy);
	fw_listener_disconnect(&unmanaged->set_geometry);
	free(unmanaged);
}

static void create_unmanaged(
		struct fw_server *server, struct wlr_xwayland_surface *xsurface) {
	struct fw_xwayland_unmanaged *unmanaged = calloc(1, sizeof(*unmanaged));
	if (unmanaged == NULL) {
		return;
	}
	unmanaged->server = server;
	unmanaged->xsurface = xsurface;
	fw_listener_connect(&unmanaged->associate, &xsurface->events.associate,
			unmanaged_associate);
	fw_listener_connect(&unmanaged->dissociate, &xsurface->events.dissociate,
			unmanaged_dissociate);
	fw_listener_connect(
			&unmanaged->destroy, &xsurface->events.destroy, unmanaged_destroy);
	fw_listener_connect(&unmanaged->set_geometry,
			&xsurface->events.set_geometry, unmanaged_set_geometry);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, new_xwayland_surface);
	struct wlr_xwayland_surface *xsurface = data;
	if (xsurface->override_redirect) {
		create_unmanaged(server, xsurface);
	} else {
		create_view(server, xsurface);
	}
}

static void handle_ready(struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, xwayland_ready);
	wlr_xwayland_set_seat(server->xwayland, server->seat);
	struct wlr_xcursor *xcursor = wlr_xcursor_manager_get_xcursor(
			server->cursor_manager, "left_ptr", 1);
	if (xcursor != NULL) {
		struct wlr_xcursor_image *image = xcursor->images[0];
		wlr_xwayland_set_cursor(server->xwayland, image->buffer,
				image->width * 4, image->width, image->height, image->hotspot_x,
				image->hotspot_y);
	}
}

bool fw_xwayland_init(struct fw_server *server) {
	/* Lazy: Xwayland itself only starts when an X client connects. */
	server->xwayland =
			wlr_xwayland_create(server->display, server->compositor, true);
	if (server->xwayland == NULL) {
		return false;
	}
	fw_listener_connect(&server->xwayland_ready,
			&server->xwayland->events.ready, handle_ready);
	fw_listener_connect(&server->new_xwayland_surface,
			&server->xwayland->events.new_surface, handle_new_surface);
	return true;
}

/* Turns the loop until the X connection hangs up, or for at most ms. */
static void wait_for_xwm_exit(struct fw_server *server, int ms) {
	struct wlr_xwayland *xwayland = server->xwayland;
	int64_t deadline = sched_clock_now_ns() + ms * SCHED_NS_PER_MS;
	int64_t left;
	while (xwayland->xwm != NULL &&
			(left = deadline - sched_clock_now_ns()) > 0) {
		wl_event_loop_dispatch(server->loop,
				(int)((left + SCHED_NS_PER_MS - 1) / SCHED_NS_PER_MS));
	}
}

void fw_xwayland_finish(struct fw_server *server) {
	if (server->xwayland == NULL) {
		return;
	}
	wl_list_remove(&server->xwayland_ready.link);
	wl_list_remove(&server->new_xwayland_surface.link);
	struct wlr_xwayland *xwayland = server->xwayland;
	/*
	 * wlroots frees its X window manager cleanly when the X connection
	 * hangs up; wlr_xwayland_destroy closes the window manager's X socket
	 * under xcb before it frees it. So hang up on Xwayland first, let the
	 * loop see the X connection go, then destroy the rest. wlroots must
	 * not see its client go, though: its handler closes that socket under
	 * xcb too and, lazy, opens new X sockets that may take the same fd
	 * number, and xcb then blocks for ever flushing to a socket that is
	 * not Xwayland's (tests/hints/hints-xterm.sh under load caught it). So
	 * the client is taken from wlroots first, as that handler would have.
	 * An Xwayland busy with its X clients can outlast the wait (a
	 * 10-minute soak's shutdown caught one): after a second, a thread of
	 * its own kills it.
	 */
	struct wlr_xwayland_server *xserver = xwayland->server;
	if (xwayland->xwm != NULL && xserver != NULL && xserver->client != NULL) {
		/* Xwayland as the gate pinned it (peer.h), never by its name. */
		struct fw_client *record = fw_client_get(xserver->client);
		bool known = record != NULL && fw_client_identify(record);
		pid_t pid = known ? record->process.pid : 0;
		int pidfd = known ? fw_client_dup_pidfd(record) : -1;
		struct fw_kill_timer timer;
		bool armed = fw_kill_timer_init(&timer, pidfd, 1000);
		if (!armed) {
			wlr_log(WLR_ERROR,
					"Cannot time Xwayland's exit (pid %d); waiting for it",
					(int)pid);
		}
		struct wl_client *client = xserver->client;
		xserver->client = NULL;
		wl_list_remove(&xserver->client_destroy.link);
		wl_list_init(&xserver->client_destroy.link);
		wl_client_destroy(client);
		wait_for_xwm_exit(server, 3000);
		if (armed && fw_kill_timer_finish(&timer)) {
			wlr_log(WLR_INFO,
					"Xwayland (pid %d) still ran 1 s after its hang-up: "
					"killed it",
					(int)pid);
		}
		if (xwayland->xwm != NULL) {
			wlr_log(WLR_ERROR, "Xwayland's window manager outlived it");
		} else {
			/* xcb closed the window manager's socket as it went: that fd
			 * number may be another's by now. */
			xserver->wm_fd[0] = -1;
		}
	}
	wlr_xwayland_destroy(xwayland);
	server->xwayland = NULL;
}
