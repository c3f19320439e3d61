#include "compositor/shell/decoration.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include <stdlib.h>
#include <wlr/types/wlr_server_decoration.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/util/log.h>

/* We always draw the frame ourselves; clients are told so. */
struct fw_xdg_decoration {
	struct wlr_xdg_toplevel_decoration_v1 *decoration;
	struct wl_listener request_mode;
	struct wl_listener destroy;
};

static void handle_request_mode(struct wl_listener *listener, void *data) {
	struct fw_xdg_decoration *deco =
			wl_container_of(listener, deco, request_mode);
	wlr_xdg_toplevel_decoration_v1_set_mode(
			deco->decoration, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_xdg_decoration *deco = wl_container_of(listener, deco, destroy);
	wl_list_remove(&deco->request_mode.link);
	wl_list_remove(&deco->destroy.link);
	free(deco);
}

static void handle_new_xdg_decoration(
		struct wl_listener *listener, void *data) {
	struct wlr_xdg_toplevel_decoration_v1 *decoration = data;
	struct fw_xdg_decoration *deco = calloc(1, sizeof(*deco));
	if (deco == NULL) {
		return;
	}
	deco->decoration = decoration;
	fw_listener_connect(&deco->request_mode, &decoration->events.request_mode,
			handle_request_mode);
	fw_listener_connect(
			&deco->destroy, &decoration->events.destroy, handle_destroy);
	wlr_xdg_toplevel_decoration_v1_set_mode(
			decoration, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

void fw_decoration_init(struct fw_server *server) {
	server->server_decoration =
			wlr_server_decoration_manager_create(server->display);
	if (server->server_decoration != NULL) {
		wlr_server_decoration_manager_set_default_mode(
				server->server_decoration,
				WLR_SERVER_DECORATION_MANAGER_MODE_SERVER);
	}
	server->xdg_decoration =
			wlr_xdg_decoration_manager_v1_create(server->display);
	if (server->xdg_decoration != NULL) {
		fw_listener_connect(&server->new_xdg_decoration,
				&server->xdg_decoration->events.new_toplevel_decoration,
				handle_new_xdg_decoration);
	}
}
