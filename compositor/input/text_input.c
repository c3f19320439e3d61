/*
 * The relay between applications' text fields (text-input-unstable-v3) and
 * an input method (input-method-unstable-v2: fcitx5, an on-screen
 * keyboard). The text field of the window with the keyboard focus is the
 * one the input method works on: it is told of it (activate, with the
 * field's surrounding text, cause and content type) when the field is
 * enabled and of each change the field commits; what the input method
 * composes goes back to that field (preedit, commit, deletion). While the
 * input method grabs the keyboard, keys go to it rather than to the window;
 * what it types back through its own virtual keyboard goes on as usual.
 * Its candidate popups sit just below the field's cursor, kept on the
 * output.
 */
#include "compositor/input/text_input.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_input_method_v2.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_subcompositor.h>
#include <wlr/types/wlr_text_input_v3.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_xdg_shell.h>

struct fw_text_input_relay {
	struct fw_server *server;
	struct wlr_text_input_manager_v3 *text_input_manager;
	struct wlr_input_method_manager_v2 *input_method_manager;
	struct wl_list text_inputs; /* fw_text_input.link */
	struct wl_list popups; /* fw_im_popup.link */
	struct wlr_input_method_v2 *input_method; /* the seat's, or NULL */

	struct wl_listener new_text_input;
	struct wl_listener new_input_method;
	struct wl_listener keyboard_focus;
	struct wl_listener input_method_commit;
	struct wl_listener input_method_new_popup;
	struct wl_listener input_method_grab;
	struct wl_listener input_method_destroy;
	struct wl_listener grab_destroy;
};

struct fw_text_input {
	struct wl_list link; /* fw_text_input_relay.text_inputs */
	struct fw_text_input_relay *relay;
	struct wlr_text_input_v3 *input;
	struct wl_listener enable;
	struct wl_listener commit;
	struct wl_listener disable;
	struct wl_listener destroy;
};

struct fw_im_popup {
	struct wl_list link; /* fw_text_input_relay.popups */
	struct fw_text_input_relay *relay;
	struct wlr_input_popup_surface_v2 *popup;
	struct wlr_scene_tree *tree;
	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener commit;
	struct wl_listener destroy;
};

/* The enabled text field of the focused surface: the one being typed in. */
static struct fw_text_input *active_text_input(
		struct fw_text_input_relay *relay) {
	struct wlr_surface *focused =
			relay->server->seat->keyboard_state.focused_surface;
	struct fw_text_input *text_input;
	wl_list_for_each(text_input, &relay->text_inputs, link) {
		if (text_input->input->current_enabled && focused != NULL &&
				text_input->input->focused_surface == focused) {
			return text_input;
		}
	}
	return NULL;
}

/*
 * Where the surface's top-left is on screen: its window's, less the window
 * geometry's offset, plus the subsurface offsets on the way down.
 */
static bool surface_origin(
		struct fw_server *server, struct wlr_surface *surface, int *x, int *y) {
	int dx = 0, dy = 0;
	struct wlr_subsurface *subsurface;
	while ((subsurface = wlr_subsurface_try_from_wlr_surface(surface)) !=
			NULL) {
		if (subsurface->parent == NULL) {
			return false;
		}
		dx += subsurface->current.x;
		dy += subsurface->current.y;
		surface = subsurface->parent;
	}
	struct fw_view *view = fw_view_from_surface(server, surface);
	if (view == NULL) {
		return false;
	}
	*x = view->x + dx;
	*y = view->y + dy;
	struct wlr_xdg_surface *xdg_surface =
			wlr_xdg_surface_try_from_wlr_surface(surface);
	if (xdg_surface != NULL) {
		struct wlr_box geometry;
		wlr_xdg_surface_get_geometry(xdg_surface, &geometry);
		*x -= geometry.x;
		*y -= geometry.y;
	}
	return true;
}

/* Below the text cursor, or above it where below would leave the output. */
static void place_popup(struct fw_im_popup *popup) {
	struct fw_text_input_relay *relay = popup->relay;
	struct fw_text_input *text_input = active_text_input(relay);
	if (text_input == NULL) {
		return;
	}
	struct wlr_text_input_v3 *input = text_input->input;
	int x, y;
	if (!surface_origin(relay->server, input->focused_surface, &x, &y)) {
		return;
	}
	struct wlr_box cursor = input->current.cursor_rectangle;
	int width = popup->popup->surface->current.width;
	int height = popup->popup->surface->current.height;
	int popup_x = x + cursor.x;
	int popup_y = y + cursor.y + cursor.height;
	struct fw_output *output =
			fw_output_at(relay->server, x + cursor.x, y + cursor.y);
	if (output != NULL) {
		struct wlr_box box;
		fw_output_box(output, &box);
		if (popup_x + width > box.x + box.width) {
			popup_x = box.x + box.width - width;
		}
		if (popup_x < box.x) {
			popup_x = box.x;
		}
		if (popup_y + height > box.y + box.height &&
				y + cursor.y - height >= box.y) {
			popup_y = y + cursor.y - height;
		}
	}
	wlr_scene_node_set_position(&popup->tree->node, popup_x, popup_y);
	struct wlr_box relative = {
			.x = x + cursor.x - popup_x,
			.y = y + cursor.y - popup_y,
			.width = cursor.width,
			.height = cursor.height,
	};
	wlr_input_popup_surface_v2_send_text_input_rectangle(
			popup->popup, &relative);
}

static void place_popups(struct fw_text_input_relay *relay) {
	struct fw_im_popup *popup;
	wl_list_for_each(popup, &relay->popups, link) {
		place_popup(popup);
	}
}

/* The field's state, as the input method is told of it. */
static void send_state(
		struct fw_text_input_relay *relay, struct wlr_text_input_v3 *input) {
	struct wlr_input_method_v2 *input_method = relay->input_method;
	if (input->active_features & WLR_TEXT_INPUT_V3_FEATURE_SURROUNDING_TEXT) {
		wlr_input_method_v2_send_surrounding_text(input_method,
				input->current.surrounding.text != NULL
						? input->current.surrounding.text
						: "",
				input->current.surrounding.cursor,
				input->current.surrounding.anchor);
	}
	wlr_input_method_v2_send_text_change_cause(
			input_method, input->current.text_change_cause);
	if (input->active_features & WLR_TEXT_INPUT_V3_FEATURE_CONTENT_TYPE) {
		wlr_input_method_v2_send_content_type(input_method,
				input->current.content_type.hint,
				input->current.content_type.purpose);
	}
	wlr_input_method_v2_send_done(input_method);
}

static void deactivate_input_method(struct fw_text_input_relay *relay) {
	if (relay->input_method == NULL || !relay->input_method->active) {
		return;
	}
	wlr_input_method_v2_send_deactivate(relay->input_method);
	wlr_input_method_v2_send_done(relay->input_method);
}

static void handle_enable(struct wl_listener *listener, void *data) {
	struct fw_text_input *text_input =
			wl_container_of(listener, text_input, enable);
	struct fw_text_input_relay *relay = text_input->relay;
	if (relay->input_method == NULL || active_text_input(relay) != text_input) {
		return;
	}
	wlr_input_method_v2_send_activate(relay->input_method);
	send_state(relay, text_input->input);
	place_popups(relay);
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_text_input *text_input =
			wl_container_of(listener, text_input, commit);
	struct fw_text_input_relay *relay = text_input->relay;
	if (relay->input_method == NULL || active_text_input(relay) != text_input) {
		return;
	}
	send_state(relay, text_input->input);
	place_popups(relay);
}

static void handle_disable(struct wl_listener *listener, void *data) {
	struct fw_text_input *text_input =
			wl_container_of(listener, text_input, disable);
	struct fw_text_input_relay *relay = text_input->relay;
	if (text_input->input->focused_surface ==
			relay->server->seat->keyboard_state.focused_surface) {
		deactivate_input_method(relay);
	}
}

static void handle_text_input_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_text_input *text_input =
			wl_container_of(listener, text_input, destroy);
	struct fw_text_input_relay *relay = text_input->relay;
	bool was_active = active_text_input(relay) == text_input;
	wl_list_remove(&text_input->link);
	fw_listener_disconnect(&text_input->enable);
	fw_listener_disconnect(&text_input->commit);
	fw_listener_disconnect(&text_input->disable);
	fw_listener_disconnect(&text_input->destroy);
	free(text_input);
	if (was_active) {
		deactivate_input_method(relay);
	}
}

static bool same_client(struct wl_resource *a, struct wlr_surface *surface) {
	return wl_resource_get_client(a) ==
			wl_resource_get_client(surface->resource);
}

static void handle_new_text_input(struct wl_listener *listener, void *data) {
	struct fw_text_input_relay *relay =
			wl_container_of(listener, relay, new_text_input);
	struct wlr_text_input_v3 *input = data;
	struct fw_text_input *text_input = calloc(1, sizeof(*text_input));
	if (text_input == NULL) {
		wl_resource_post_no_memory(input->resource);
		return;
	}
	text_input->relay = relay;
	text_input->input = input;
	fw_listener_connect(
			&text_input->enable, &input->events.enable, handle_enable);
	fw_listener_connect(
			&text_input->commit, &input->events.commit, handle_commit);
	fw_listener_connect(
			&text_input->disable, &input->events.disable, handle_disable);
	fw_listener_connect(&text_input->destroy, &input->events.destroy,
			handle_text_input_destroy);
	wl_list_insert(&relay->text_inputs, &text_input->link);
	struct wlr_surface *focused =
			relay->server->seat->keyboard_state.focused_surface;
	if (focused != NULL && same_client(input->resource, focused)) {
		wlr_text_input_v3_send_enter(input, focused);
	}
}

/* The keyboard went elsewhere: so does every text field's focus. */
static void handle_keyboard_focus(struct wl_listener *listener, void *data) {
	struct fw_text_input_relay *relay =
			wl_container_of(listener, relay, keyboard_focus);
	struct wlr_seat_keyboard_focus_change_event *event = data;
	struct fw_text_input *text_input;
	wl_list_for_each(text_input, &relay->text_inputs, link) {
		struct wlr_text_input_v3 *input = text_input->input;
		if (input->focused_surface != NULL &&
				input->focused_surface != event->new_surface) {
			if (input->current_enabled) {
				deactivate_input_method(relay);
			}
			wlr_text_input_v3_send_leave(input);
		}
		if (event->new_surface != NULL &&
				input->focused_surface != event->new_surface &&
				same_client(input->resource, event->new_surface)) {
			wlr_text_input_v3_send_enter(input, event->new_surface);
		}
	}
}

static void handle_input_method_commit(
		struct wl_listener *listener, void *data) {
	struct fw_text_input_relay *relay =
			wl_container_of(listener, relay, input_method_commit);
	struct fw_text_input *text_input = active_text_input(relay);
	if (text_input == NULL) {
		return;
	}
	struct wlr_input_method_v2_state *state = &relay->input_method->current;
	struct wlr_text_input_v3 *input = text_input->input;
	if (state->preedit.text != NULL) {
		wlr_text_input_v3_send_preedit_string(input, state->preedit.text,
				state->preedit.cursor_begin, state->preedit.cursor_end);
	}
	if (state->commit_text != NULL) {
		wlr_text_input_v3_send_commit_string(input, state->commit_text);
	}
	if (state->delete.before_length != 0 || state->delete.after_length != 0) {
		wlr_text_input_v3_send_delete_surrounding_text(
				input, state->delete.before_length, state->delete.after_length);
	}
	wlr_text_input_v3_send_done(input);
}

static void handle_popup_map(struct wl_listener *listener, void *data) {
	struct fw_im_popup *popup = wl_container_of(listener, popup, map);
	wlr_scene_node_set_enabled(&popup->tree->node, true);
	place_popup(popup);
}

static void handle_popup_unmap(struct wl_listener *listener, void *data) {
	struct fw_im_popup *popup = wl_container_of(listener, popup, unmap);
	wlr_scene_node_set_enabled(&popup->tree->node, false);
}

static void handle_popup_commit(struct wl_listener *listener, void *data) {
	struct fw_im_popup *popup = wl_container_of(listener, popup, commit);
	/* Its size decides whether it fits below the cursor. */
	place_popup(popup);
}

static void handle_popup_destroy(struct wl_listener *listener, void *data) {
	struct fw_im_popup *popup = wl_container_of(listener, popup, destroy);
	wl_list_remove(&popup->link);
	fw_listener_disconnect(&popup->map);
	fw_listener_disconnect(&popup->unmap);
	fw_listener_disconnect(&popup->commit);
	fw_listener_disconnect(&popup->destroy);
	/* The role object can go before its surface (the input method went):
	 * what showed it goes now. */
	wlr_scene_node_destroy(&popup->tree->node);
	free(popup);
}

static void handle_input_method_new_popup(
		struct wl_listener *listener, void *data) {
	struct fw_text_input_relay *relay =
			wl_container_of(listener, relay, input_method_new_popup);
	struct wlr_input_popup_surface_v2 *surface = data;
	struct fw_im_popup *popup = calloc(1, sizeof(*popup));
	if (popup == NULL) {
		wl_resource_post_no_memory(surface->resource);
		return;
	}
	popup->relay = relay;
	popup->popup = surface;
	popup->tree = wlr_scene_subsurface_tree_create(
			relay->server->layers[FW_LAYER_POPUPS], surface->surface);
	if (popup->tree == NULL) {
		free(popup);
		wl_resource_post_no_memory(surface->resource);
		return;
	}
	/* wlroots maps the popup while its input method is active and it has
	 * a buffer. */
	wlr_scene_node_set_enabled(&popup->tree->node, surface->surface->mapped);
	fw_listener_connect(
			&popup->map, &surface->surface->events.map, handle_popup_map);
	fw_listener_connect(
			&popup->unmap, &surface->surface->events.unmap, handle_popup_unmap);
	fw_listener_connect(&popup->commit, &surface->surface->events.commit,
			handle_popup_commit);
	fw_listener_connect(
			&popup->destroy, &surface->events.destroy, handle_popup_destroy);
	wl_list_insert(&relay->popups, &popup->link);
	place_popup(popup);
}

static void handle_grab_destroy(struct wl_listener *listener, void *data) {
	struct fw_text_input_relay *relay =
			wl_container_of(listener, relay, grab_destroy);
	fw_listener_disconnect(&relay->grab_destroy);
	struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(relay->server->seat);
	if (keyboard != NULL) {
		/* The window gets the modifiers the input method had. */
		wlr_seat_keyboard_notify_modifiers(
				relay->server->seat, &keyboard->modifiers);
	}
}

static void handle_input_method_grab(struct wl_listener *listener, void *data) {
	struct fw_text_input_relay *relay =
			wl_container_of(listener, relay, input_method_grab);
	struct wlr_input_method_keyboard_grab_v2 *grab = data;
	wlr_input_method_keyboard_grab_v2_set_keyboard(
			grab, wlr_seat_get_keyboard(relay->server->seat));
	fw_listener_connect(
			&relay->grab_destroy, &grab->events.destroy, handle_grab_destroy);
}

static void handle_input_method_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_text_input_relay *relay =
			wl_container_of(listener, relay, input_method_destroy);
	struct fw_text_input *text_input = active_text_input(relay);
	fw_listener_disconnect(&relay->input_method_commit);
	fw_listener_disconnect(&relay->input_method_new_popup);
	fw_listener_disconnect(&relay->input_method_grab);
	fw_listener_disconnect(&relay->input_method_destroy);
	relay->input_method = NULL;
	if (text_input != NULL) {
		/* What it was composing is gone with it. */
		wlr_text_input_v3_send_preedit_string(text_input->input, NULL, 0, 0);
		wlr_text_input_v3_send_done(text_input->input);
	}
}

static void handle_new_input_method(struct wl_listener *listener, void *data) {
	struct fw_text_input_relay *relay =
			wl_container_of(listener, relay, new_input_method);
	struct wlr_input_method_v2 *input_method = data;
	if (input_method->seat != relay->server->seat ||
			relay->input_method != NULL) {
		/* One input method a seat. */
		wlr_input_method_v2_send_unavailable(input_method);
		return;
	}
	relay->input_method = input_method;
	fw_listener_connect(&relay->input_method_commit,
			&input_method->events.commit, handle_input_method_commit);
	fw_listener_connect(&relay->input_method_new_popup,
			&input_method->events.new_popup_surface,
			handle_input_method_new_popup);
	fw_listener_connect(&relay->input_method_grab,
			&input_method->events.grab_keyboard, handle_input_method_grab);
	fw_listener_connect(&relay->input_method_destroy,
			&input_method->events.destroy, handle_input_method_destroy);
	struct fw_text_input *text_input = active_text_input(relay);
	if (text_input != NULL) {
		wlr_input_method_v2_send_activate(input_method);
		send_state(relay, text_input->input);
	}
}

/* What the input method types itself goes to the window. */
static bool from_input_method(
		struct fw_text_input_relay *relay, struct wlr_keyboard *keyboard) {
	struct wlr_virtual_keyboard_v1
			*virtual = wlr_input_device_get_virtual_keyboard(&keyboard->base);
	return virtual != NULL &&
			wl_resource_get_client(virtual->resource) ==
			wl_resource_get_client(relay->input_method->resource);
}

bool fw_text_input_forward_key(struct fw_server *server,
		struct wlr_keyboard *keyboard, struct wlr_keyboard_key_event *event) {
	struct fw_text_input_relay *relay = server->text_input;
	if (relay == NULL || relay->input_method == NULL ||
			relay->input_method->keyboard_grab == NULL) {
		return false;
	}
	struct wlr_input_method_keyboard_grab_v2 *grab =
			relay->input_method->keyboard_grab;
	if (from_input_method(relay, keyboard)) {
		return false;
	}
	wlr_input_method_keyboard_grab_v2_set_keyboard(grab, keyboard);
	wlr_input_method_keyboard_grab_v2_send_key(
			grab, event->time_msec, event->keycode, event->state);
	return true;
}

bool fw_text_input_forward_modifiers(
		struct fw_server *server, struct wlr_keyboard *keyboard) {
	struct fw_text_input_relay *relay = server->text_input;
	if (relay == NULL || relay->input_method == NULL ||
			relay->input_method->keyboard_grab == NULL ||
			from_input_method(relay, keyboard)) {
		return false;
	}
	struct wlr_input_method_keyboard_grab_v2 *grab =
			relay->input_method->keyboard_grab;
	wlr_input_method_keyboard_grab_v2_set_keyboard(grab, keyboard);
	wlr_input_method_keyboard_grab_v2_send_modifiers(
			grab, &keyboard->modifiers);
	return true;
}

bool fw_text_input_init(struct fw_server *server) {
	struct fw_text_input_relay *relay = calloc(1, sizeof(*relay));
	if (relay == NULL) {
		return false;
	}
	relay->server = server;
	wl_list_init(&relay->text_inputs);
	wl_list_init(&relay->popups);
	relay->text_input_manager =
			wlr_text_input_manager_v3_create(server->display);
	relay->input_method_manager =
			wlr_input_method_manager_v2_create(server->display);
	if (relay->text_input_manager == NULL ||
			relay->input_method_manager == NULL) {
		free(relay);
		return false;
	}
	fw_listener_connect(&relay->new_text_input,
			&relay->text_input_manager->events.text_input,
			handle_new_text_input);
	fw_listener_connect(&relay->new_input_method,
			&relay->input_method_manager->events.input_method,
			handle_new_input_method);
	fw_listener_connect(&relay->keyboard_focus,
			&server->seat->keyboard_state.events.focus_change,
			handle_keyboard_focus);
	server->text_input = relay;
	return true;
}

void fw_text_input_finish(struct fw_server *server) {
	struct fw_text_input_relay *relay = server->text_input;
	if (relay == NULL) {
		return;
	}
	fw_listener_disconnect(&relay->new_text_input);
	fw_listener_disconnect(&relay->new_input_method);
	fw_listener_disconnect(&relay->keyboard_focus);
	fw_listener_disconnect(&relay->input_method_commit);
	fw_listener_disconnect(&relay->input_method_new_popup);
	fw_listener_disconnect(&relay->input_method_grab);
	fw_listener_disconnect(&relay->input_method_destroy);
	fw_listener_disconnect(&relay->grab_destroy);
	free(relay);
	server->text_input = NULL;
}
