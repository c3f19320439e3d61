/*
 * Who draws a window's title bar, as the window and fairway agree on it.
 *
 * A client that asks for server-side decorations (xdg-decoration or KDE's
 * server-decoration protocol) gets fairway's frame; one that asks for
 * client-side ones, or uses neither protocol (xdg-shell's default: the
 * client decorates itself), gets none; one that states no preference
 * (xdg-decoration's unset_mode, or no set_mode yet; KDE's default mode)
 * gets the configured default (fw_config.decorations_server). Where a
 * client speaks both protocols, xdg-decoration's answer wins.
 *
 * xdg-shell allows no configure before a toplevel's initial commit: a mode
 * asked for before then is answered at that commit.
 */
#include "compositor/shell/decoration.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_server_decoration.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_shell.h>

struct fw_decorations {
	struct fw_server *server;
	struct wl_listener new_xdg;
	struct wl_listener new_kde;
};

/* A decoration object of either protocol, followed for its changes. */
struct fw_decoration {
	struct fw_server *server;
	struct wlr_surface *surface;
	/* xdg-decoration's; NULL for KDE's */
	struct wlr_xdg_toplevel_decoration_v1 *xdg;
	struct wl_listener request_mode;
	struct wl_listener commit; /* xdg-decoration's: the initial commit */
	struct wl_listener destroy;
};

static enum wlr_xdg_toplevel_decoration_v1_mode xdg_answer(
		struct fw_server *server,
		enum wlr_xdg_toplevel_decoration_v1_mode requested) {
	if (requested == WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_NONE) {
		return server->config.decorations_server
				? WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE
				: WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE;
	}
	return requested;
}

bool fw_decoration_server_side(
		struct fw_server *server, struct wlr_surface *surface) {
	struct wlr_xdg_toplevel *toplevel =
			wlr_xdg_toplevel_try_from_wlr_surface(surface);
	if (server->xdg_decoration != NULL && toplevel != NULL) {
		struct wlr_xdg_toplevel_decoration_v1 *decoration;
		wl_list_for_each(
				decoration, &server->xdg_decoration->decorations, link) {
			if (decoration->toplevel == toplevel) {
				return xdg_answer(server, decoration->requested_mode) ==
						WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE;
			}
		}
	}
	if (server->server_decoration != NULL) {
		struct wlr_server_decoration *decoration;
		wl_list_for_each(
				decoration, &server->server_decoration->decorations, link) {
			if (decoration->surface == surface) {
				return decoration->mode ==
						WLR_SERVER_DECORATION_MANAGER_MODE_SERVER;
			}
		}
	}
	return false;
}

/* The window's frame follows what was agreed, once it is on screen. */
static void refresh(struct fw_server *server, struct wlr_surface *surface) {
	struct fw_view *view = fw_view_from_surface(server, surface);
	if (view != NULL) {
		fw_view_set_decorated(view, fw_decoration_server_side(server, surface));
	}
}

static void decoration_destroy(struct fw_decoration *deco) {
	fw_listener_disconnect(&deco->request_mode);
	fw_listener_disconnect(&deco->commit);
	fw_listener_disconnect(&deco->destroy);
	free(deco);
}

static void answer_xdg(struct fw_decoration *deco) {
	struct wlr_xdg_toplevel_decoration_v1 *decoration = deco->xdg;
	wlr_xdg_toplevel_decoration_v1_set_mode(
			decoration, xdg_answer(deco->server, decoration->requested_mode));
}

static void handle_xdg_request_mode(struct wl_listener *listener, void *data) {
	struct fw_decoration *deco = wl_container_of(listener, deco, request_mode);
	if (deco->xdg->toplevel->base->initialized) {
		answer_xdg(deco);
	}
	refresh(deco->server, deco->surface);
}

static void handle_xdg_commit(struct wl_listener *listener, void *data) {
	struct fw_decoration *deco = wl_container_of(listener, deco, commit);
	if (deco->xdg->toplevel->base->initial_commit) {
		answer_xdg(deco);
	}
}

static void handle_xdg_destroy(struct wl_listener *listener, void *data) {
	struct fw_decoration *deco = wl_container_of(listener, deco, destroy);
	struct fw_server *server = deco->server;
	struct wlr_surface *surface = deco->surface;
	decoration_destroy(deco);
	/* Without it, the client decorates itself again. */
	refresh(server, surface);
}

static void handle_new_xdg(struct wl_listener *listener, void *data) {
	struct fw_decorations *decorations =
			wl_container_of(listener, decorations, new_xdg);
	struct wlr_xdg_toplevel_decoration_v1 *decoration = data;
	struct fw_decoration *deco = calloc(1, sizeof(*deco));
	if (deco == NULL) {
		wl_resource_post_no_memory(decoration->resource);
		return;
	}
	deco->server = decorations->server;
	deco->surface = decoration->toplevel->base->surface;
	deco->xdg = decoration;
	fw_listener_connect(&deco->request_mode, &decoration->events.request_mode,
			handle_xdg_request_mode);
	fw_listener_connect(
			&deco->commit, &deco->surface->events.commit, handle_xdg_commit);
	fw_listener_connect(
			&deco->destroy, &decoration->events.destroy, handle_xdg_destroy);
	/* No mode asked for yet: fairway's default, told now or at the
	 * initial commit. */
	handle_xdg_request_mode(&deco->request_mode, decoration);
}

static void handle_kde_mode(struct wl_listener *listener, void *data) {
	struct fw_decoration *deco = wl_container_of(listener, deco, request_mode);
	refresh(deco->server, deco->surface);
}

static void handle_kde_destroy(struct wl_listener *listener, void *data) {
	struct fw_decoration *deco = wl_container_of(listener, deco, destroy);
	struct fw_server *server = deco->server;
	struct wlr_surface *surface = deco->surface;
	decoration_destroy(deco);
	refresh(server, surface);
}

static void handle_new_kde(struct wl_listener *listener, void *data) {
	struct fw_decorations *decorations =
			wl_container_of(listener, decorations, new_kde);
	struct wlr_server_decoration *decoration = data;
	struct fw_decoration *deco = calloc(1, sizeof(*deco));
	if (deco == NULL) {
		wl_resource_post_no_memory(decoration->resource);
		return;
	}
	deco->server = decorations->server;
	deco->surface = decoration->surface;
	fw_listener_connect(
			&deco->request_mode, &decoration->events.mode, handle_kde_mode);
	fw_listener_connect(
			&deco->destroy, &decoration->events.destroy, handle_kde_destroy);
	refresh(deco->server, deco->surface);
}

void fw_decoration_apply_config(struct fw_server *server) {
	if (server->decorations == NULL) {
		return;
	}
	wlr_server_decoration_manager_set_default_mode(server->server_decoration,
			server->config.decorations_server
					? WLR_SERVER_DECORATION_MANAGER_MODE_SERVER
					: WLR_SERVER_DECORATION_MANAGER_MODE_CLIENT);
	/* Windows that left the choice to fairway are told the new one. */
	struct wlr_xdg_toplevel_decoration_v1 *decoration;
	wl_list_for_each(decoration, &server->xdg_decoration->decorations, link) {
		if (decoration->requested_mode ==
						WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_NONE &&
				decoration->toplevel->base->initialized) {
			wlr_xdg_toplevel_decoration_v1_set_mode(
					decoration, xdg_answer(server, decoration->requested_mode));
		}
	}
	struct fw_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped && view->type == FW_VIEW_XDG) {
			fw_view_set_decorated(
					view, fw_decoration_server_side(server, view->surface));
		}
	}
}

bool fw_decoration_init(struct fw_server *server) {
	struct fw_decorations *decorations = calloc(1, sizeof(*decorations));
	if (decorations == NULL) {
		return false;
	}
	decorations->server = server;
	server->decorations = decorations;
	server->server_decoration =
			wlr_server_decoration_manager_create(server->display);
	server->xdg_decoration =
			wlr_xdg_decoration_manager_v1_create(server->display);
	if (server->server_decoration == NULL || server->xdg_decoration == NULL) {
		return false;
	}
	fw_decoration_apply_config(server);
	fw_listener_connect(&decorations->new_kde,
			&server->server_decoration->events.new_decoration, handle_new_kde);
	fw_listener_connect(&decorations->new_xdg,
			&server->xdg_decoration->events.new_toplevel_decoration,
			handle_new_xdg);
	return true;
}

void fw_decoration_finish(struct fw_server *server) {
	struct fw_decorations *decorations = server->decorations;
	if (decorations == NULL) {
		return;
	}
	fw_listener_disconnect(&decorations->new_kde);
	fw_listener_disconnect(&decorations->new_xdg);
	free(decorations);
	server->decorations = NULL;
}
