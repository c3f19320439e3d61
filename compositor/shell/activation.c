#include "compositor/shell/activation.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_activation_v1.h>
#include <wlr/util/log.h>

struct fw_activation {
	struct fw_server *server;
	struct wlr_xdg_activation_v1 *manager;
	struct wl_list issued; /* fw_issued_token.link */
	struct wl_listener request_activate;
};

/* A token fairway issued, until it is used or expires. */
struct fw_issued_token {
	struct fw_activation *activation;
	struct wlr_xdg_activation_token_v1 *token;
	struct wl_event_source *expiry;
	struct wl_listener destroy;
	struct wl_list link; /* fw_activation.issued */
};

static void handle_token_destroy(struct wl_listener *listener, void *data) {
	struct fw_issued_token *issued = wl_container_of(listener, issued, destroy);
	fw_listener_disconnect(&issued->destroy);
	wl_event_source_remove(issued->expiry);
	wl_list_remove(&issued->link);
	free(issued);
}

static int handle_expiry(void *data) {
	struct fw_issued_token *issued = data;
	/* Its destroy handler frees the record. */
	wlr_xdg_activation_token_v1_destroy(issued->token);
	return 0;
}

static bool issued_here(struct fw_activation *activation,
		struct wlr_xdg_activation_token_v1 *token) {
	struct fw_issued_token *issued;
	wl_list_for_each(issued, &activation->issued, link) {
		if (issued->token == token) {
			return true;
		}
	}
	return false;
}

/*
 * Whether the token comes from the client that has the keyboard, with the
 * serial of an input event fairway sent it lately.
 */
static bool from_focused_input(
		struct fw_server *server, struct wlr_xdg_activation_token_v1 *token) {
	struct wlr_seat_client *focused =
			server->seat->keyboard_state.focused_client;
	if (token->seat != server->seat || token->surface == NULL ||
			token->surface->resource == NULL || focused == NULL) {
		return false;
	}
	return wl_resource_get_client(token->surface->resource) ==
			focused->client &&
			wlr_seat_client_validate_event_serial(focused, token->serial);
}

static void handle_request_activate(struct wl_listener *listener, void *data) {
	struct fw_activation *activation =
			wl_container_of(listener, activation, request_activate);
	struct wlr_xdg_activation_v1_request_activate_event *event = data;
	struct fw_view *view =
			fw_view_from_surface(activation->server, event->surface);
	if (view == NULL) {
		return;
	}
	if (issued_here(activation, event->token) ||
			from_focused_input(activation->server, event->token)) {
		fw_view_focus(view);
		return;
	}
	wlr_log(WLR_INFO,
			"Activation of a window refused: its token is no input of the "
			"focused client's, nor fairway's; the window is marked urgent");
	fw_view_set_urgent(view, true);
}

struct fw_activation *fw_activation_create(struct fw_server *server) {
	struct fw_activation *activation = calloc(1, sizeof(*activation));
	if (activation == NULL) {
		return NULL;
	}
	activation->server = server;
	wl_list_init(&activation->issued);
	activation->manager = wlr_xdg_activation_v1_create(server->display);
	if (activation->manager == NULL) {
		free(activation);
		return NULL;
	}
	fw_listener_connect(&activation->request_activate,
			&activation->manager->events.request_activate,
			handle_request_activate);
	return activation;
}

void fw_activation_destroy(struct fw_activation *activation) {
	if (activation == NULL) {
		return;
	}
	struct fw_issued_token *issued, *tmp;
	wl_list_for_each_safe(issued, tmp, &activation->issued, link) {
		wlr_xdg_activation_token_v1_destroy(issued->token);
	}
	fw_listener_disconnect(&activation->request_activate);
	/* The global goes with the display. */
	free(activation);
}

const char *fw_activation_issue(struct fw_activation *activation) {
	if (activation == NULL) {
		return NULL;
	}
	struct fw_issued_token *issued = calloc(1, sizeof(*issued));
	if (issued == NULL) {
		return NULL;
	}
	issued->activation = activation;
	issued->token = wlr_xdg_activation_token_v1_create(activation->manager);
	issued->expiry = issued->token != NULL
			? wl_event_loop_add_timer(
					  activation->server->loop, handle_expiry, issued)
			: NULL;
	if (issued->expiry == NULL) {
		if (issued->token != NULL) {
			wlr_xdg_activation_token_v1_destroy(issued->token);
		}
		free(issued);
		return NULL;
	}
	wl_event_source_timer_update(issued->expiry, FW_ACTIVATION_TOKEN_MS);
	fw_listener_connect(&issued->destroy, &issued->token->events.destroy,
			handle_token_destroy);
	wl_list_insert(&activation->issued, &issued->link);
	return wlr_xdg_activation_token_v1_get_name(issued->token);
}
