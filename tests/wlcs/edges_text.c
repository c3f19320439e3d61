/*
 * The relay between a window's text field (text-input-unstable-v3) and an
 * input method (input-method-unstable-v2): focus, the field's state,
 * what the input method composes, and where its popup goes.
 */
#include "input-method-unstable-v2-client-protocol.h"
#include "tests/wlcs/edges.h"
#include "text-input-unstable-v3-client-protocol.h"
#include <stdlib.h>
#include <string.h>

struct text_field {
	struct zwp_text_input_v3 *text_input;
	struct wl_surface *entered;
	char *committed;
	char *preedit;
	uint32_t done_serial;
	int dones;
};

static void handle_enter(void *data, struct zwp_text_input_v3 *text_input,
		struct wl_surface *surface) {
	struct text_field *field = data;
	field->entered = surface;
}

static void handle_leave(void *data, struct zwp_text_input_v3 *text_input,
		struct wl_surface *surface) {
	struct text_field *field = data;
	field->entered = NULL;
}

static void handle_preedit(void *data, struct zwp_text_input_v3 *text_input,
		const char *text, int32_t begin, int32_t end) {
	struct text_field *field = data;
	free(field->preedit);
	field->preedit = text != NULL ? strdup(text) : NULL;
}

static void handle_commit_string(
		void *data, struct zwp_text_input_v3 *text_input, const char *text) {
	struct text_field *field = data;
	free(field->committed);
	field->committed = text != NULL ? strdup(text) : NULL;
}

static void handle_delete(void *data, struct zwp_text_input_v3 *text_input,
		uint32_t before, uint32_t after) {
}

static void handle_done(
		void *data, struct zwp_text_input_v3 *text_input, uint32_t serial) {
	struct text_field *field = data;
	field->done_serial = serial;
	field->dones++;
}

static const struct zwp_text_input_v3_listener text_input_listener = {
		.enter = handle_enter,
		.leave = handle_leave,
		.preedit_string = handle_preedit,
		.commit_string = handle_commit_string,
		.delete_surrounding_text = handle_delete,
		.done = handle_done,
};

struct input_method {
	struct zwp_input_method_v2 *input_method;
	bool active;
	char *surrounding;
	int dones;
	bool unavailable;
};

static void handle_activate(void *data, struct zwp_input_method_v2 *im) {
	struct input_method *method = data;
	method->active = true;
}

static void handle_deactivate(void *data, struct zwp_input_method_v2 *im) {
	struct input_method *method = data;
	method->active = false;
}

static void handle_surrounding(void *data, struct zwp_input_method_v2 *im,
		const char *text, uint32_t cursor, uint32_t anchor) {
	struct input_method *method = data;
	free(method->surrounding);
	method->surrounding = strdup(text);
}

static void handle_cause(
		void *data, struct zwp_input_method_v2 *im, uint32_t cause) {
}

static void handle_content_type(void *data, struct zwp_input_method_v2 *im,
		uint32_t hint, uint32_t purpose) {
}

static void handle_im_done(void *data, struct zwp_input_method_v2 *im) {
	struct input_method *method = data;
	method->dones++;
}

static void handle_unavailable(void *data, struct zwp_input_method_v2 *im) {
	struct input_method *method = data;
	method->unavailable = true;
}

static const struct zwp_input_method_v2_listener input_method_listener = {
		.activate = handle_activate,
		.deactivate = handle_deactivate,
		.surrounding_text = handle_surrounding,
		.text_change_cause = handle_cause,
		.content_type = handle_content_type,
		.done = handle_im_done,
		.unavailable = handle_unavailable,
};

/* An application's focused window with a text field, and an input method
 * on the same seat, each its own client. */
struct relay {
	struct edges_client app, im_client;
	struct edges_window window;
	struct text_field field;
	struct input_method method;
};

static bool relay_start(struct relay *relay, struct edges_server *server) {
	*relay = (struct relay){0};
	if (!edges_client_connect(&relay->app, server) ||
			!edges_client_connect(&relay->im_client, server)) {
		return false;
	}
	if (relay->app.text_input_manager == NULL ||
			relay->im_client.input_method_manager == NULL) {
		return FAIL("no text-input-v3 or input-method-v2 manager");
	}
	relay->field.text_input = zwp_text_input_manager_v3_get_text_input(
			relay->app.text_input_manager, relay->app.seat);
	zwp_text_input_v3_add_listener(
			relay->field.text_input, &text_input_listener, &relay->field);
	relay->method.input_method = zwp_input_method_manager_v2_get_input_method(
			relay->im_client.input_method_manager, relay->im_client.seat);
	zwp_input_method_v2_add_listener(
			relay->method.input_method, &input_method_listener, &relay->method);
	if (!edges_roundtrip(&relay->im_client) ||
			!edges_window_create(
					&relay->window, &relay->app, 300, 200, 100, 100)) {
		return false;
	}
	return CHECK(relay->field.entered == relay->window.surface,
			"the text field did not enter the focused window");
}

static void relay_stop(struct relay *relay) {
	edges_client_disconnect(&relay->im_client);
	edges_client_disconnect(&relay->app);
	free(relay->field.committed);
	free(relay->field.preedit);
	free(relay->method.surrounding);
}

static bool sync_both(struct relay *relay) {
	return edges_roundtrip(&relay->app) && edges_roundtrip(&relay->im_client) &&
			edges_roundtrip(&relay->app);
}

static bool text_field_and_input_method(struct edges_server *server) {
	struct relay relay;
	bool ok = relay_start(&relay, server);
	zwp_text_input_v3_enable(relay.field.text_input);
	zwp_text_input_v3_set_surrounding_text(relay.field.text_input, "abc", 1, 1);
	zwp_text_input_v3_commit(relay.field.text_input);
	ok = ok && sync_both(&relay) &&
			CHECK(relay.method.active && relay.method.dones > 0 &&
							relay.method.surrounding != NULL &&
							strcmp(relay.method.surrounding, "abc") == 0,
					"the input method was not activated with the field's text");
	zwp_input_method_v2_set_preedit_string(
			relay.method.input_method, "ni", 2, 2);
	zwp_input_method_v2_commit(
			relay.method.input_method, (uint32_t)relay.method.dones);
	ok = ok && sync_both(&relay) &&
			CHECK(relay.field.preedit != NULL &&
							strcmp(relay.field.preedit, "ni") == 0,
					"no preedit reached the field");
	zwp_input_method_v2_commit_string(
			relay.method.input_method, "\xe4\xbd\xa0");
	zwp_input_method_v2_commit(
			relay.method.input_method, (uint32_t)relay.method.dones);
	ok = ok && sync_both(&relay) &&
			CHECK(relay.field.committed != NULL &&
							strcmp(relay.field.committed, "\xe4\xbd\xa0") ==
									0 &&
							relay.field.done_serial == 1,
					"the committed text did not reach the field (done %u)",
					relay.field.done_serial);
	/* Another window of the application takes the keyboard: the field
	 * follows it there, and the input method waits for it to be enabled
	 * again. */
	struct edges_window other;
	ok = ok && edges_window_create(&other, &relay.app, 50, 50, 500, 500) &&
			sync_both(&relay) &&
			CHECK(relay.field.entered == other.surface && !relay.method.active,
					"focus went to another window: the field is on %p "
					"(expected %p), the input method %s",
					(void *)relay.field.entered, (void *)other.surface,
					relay.method.active ? "still active" : "inactive");
	relay_stop(&relay);
	return ok;
}

static void handle_rectangle(void *data,
		struct zwp_input_popup_surface_v2 *popup, int32_t x, int32_t y,
		int32_t width, int32_t height) {
	int32_t *rect = data;
	rect[0] = x;
	rect[1] = y;
	rect[2] = width;
	rect[3] = height;
	rect[4] = 1;
}

static const struct zwp_input_popup_surface_v2_listener popup_listener = {
		.text_input_rectangle = handle_rectangle,
};

/* The candidate popup sits just below the text cursor. */
static bool popup_below_cursor(struct edges_server *server) {
	struct relay relay;
	bool ok = relay_start(&relay, server);
	zwp_text_input_v3_enable(relay.field.text_input);
	zwp_text_input_v3_set_cursor_rectangle(
			relay.field.text_input, 40, 30, 2, 16);
	zwp_text_input_v3_commit(relay.field.text_input);
	ok = ok && sync_both(&relay);
	struct edges_client *im = &relay.im_client;
	struct wl_surface *surface = wl_compositor_create_surface(im->compositor);
	int32_t rect[5] = {0};
	struct zwp_input_popup_surface_v2 *popup =
			zwp_input_method_v2_get_input_popup_surface(
					relay.method.input_method, surface);
	zwp_input_popup_surface_v2_add_listener(popup, &popup_listener, rect);
	wl_surface_attach(surface, edges_buffer(im, 80, 40, 0xffffffff), 0, 0);
	wl_surface_damage(surface, 0, 0, 80, 40);
	wl_surface_commit(surface);
	ok = ok && sync_both(&relay) && edges_roundtrip(im) &&
			CHECK(rect[4] == 1 && rect[0] == 0 && rect[1] == -16 &&
							rect[2] == 2 && rect[3] == 16,
					"text_input_rectangle %d,%d %dx%d (sent %d), expected "
					"0,-16 2x16",
					rect[0], rect[1], rect[2], rect[3], rect[4]);
	/* The window's surface is at (100, 100): the popup at (140, 146). */
	WlcsPointer *pointer = edges_pointer_create(server);
	edges_pointer_move_to(pointer, 150, 150);
	ok = ok && edges_roundtrip(im) &&
			CHECK(im->pointer_focus == surface && im->pointer_x == 10 &&
							im->pointer_y == 4,
					"the popup is not below the cursor: pointer on %p at "
					"%.1f,%.1f",
					(void *)im->pointer_focus, im->pointer_x, im->pointer_y);
	pointer->destroy(pointer);
	relay_stop(&relay);
	return ok;
}

const struct edges_case edges_text_cases[] = {
		{"text-field-and-input-method", text_field_and_input_method},
		{"input-method-popup-below-cursor", popup_below_cursor},
		{NULL, NULL},
};
