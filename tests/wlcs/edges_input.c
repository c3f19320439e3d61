/*
 * Where input goes: the pointer after what is under it changed, a drag
 * off a surface, touch points, pointer constraints and a virtual pointer's
 * frames.
 */
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "tests/wlcs/edges.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include <linux/input-event-codes.h>
#include <math.h>

static bool pointer_at(struct edges_client *client, struct wl_surface *surface,
		double x, double y, const char *what) {
	if (!edges_roundtrip(client)) {
		return FAIL("%s: lost fairway", what);
	}
	return CHECK(client->pointer_focus == surface &&
					fabs(client->pointer_x - x) < 0.01 &&
					fabs(client->pointer_y - y) < 0.01,
			"%s: pointer on %p at %.2f,%.2f, expected %p at %.2f,%.2f", what,
			(void *)client->pointer_focus, client->pointer_x, client->pointer_y,
			(void *)surface, x, y);
}

/* Every event the scene's change caused is closed by a frame. */
static bool framed(struct edges_client *client, const char *what) {
	return CHECK(client->pointer_events_in_frame == 0,
			"%s: %d pointer events with no frame after them", what,
			client->pointer_events_in_frame);
}

/* One pixel outside the window's top-left, then one pixel in: at (0, 0). */
static bool pointer_enters_at_corner(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 100, 100, 23, 231)) {
		return false;
	}
	WlcsPointer *pointer = edges_pointer_create(server);
	edges_pointer_move_to(pointer, 22, 230);
	bool ok = edges_roundtrip(&client) &&
			CHECK(client.pointer_focus != window.surface,
					"the pointer is on the window before it entered it");
	edges_pointer_move_by(pointer, 1, 1);
	ok = ok && pointer_at(&client, window.surface, 0, 0, "one pixel in");
	pointer->destroy(pointer);
	edges_client_disconnect(&client);
	return ok;
}

static bool surface_grows_under_pointer(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 100, 100, 100, 100)) {
		return false;
	}
	WlcsPointer *pointer = edges_pointer_create(server);
	edges_pointer_move_to(pointer, 250, 150);
	bool ok = edges_roundtrip(&client) &&
			CHECK(client.pointer_focus != window.surface,
					"the pointer is on the window before it grew");
	wl_surface_attach(
			window.surface, edges_buffer(&client, 200, 200, 0xff3366cc), 0, 0);
	wl_surface_damage(window.surface, 0, 0, 200, 200);
	wl_surface_commit(window.surface);
	ok = ok && pointer_at(&client, window.surface, 150, 50, "grown") &&
			framed(&client, "grown");
	wl_surface_attach(
			window.surface, edges_buffer(&client, 100, 100, 0xff3366cc), 0, 0);
	wl_surface_damage(window.surface, 0, 0, 100, 100);
	wl_surface_commit(window.surface);
	ok = ok && edges_roundtrip(&client) &&
			CHECK(client.pointer_focus == NULL,
					"the pointer stayed on the window after it shrank") &&
			framed(&client, "shrunk");
	pointer->destroy(pointer);
	edges_client_disconnect(&client);
	return ok;
}

static bool subsurface_moves_under_pointer(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 200, 200, 100, 100)) {
		return false;
	}
	struct wl_subsurface *subsurface;
	struct wl_surface *sub = edges_subsurface_create(
			&client, window.surface, &subsurface, 0, 0, 50, 50);
	WlcsPointer *pointer = edges_pointer_create(server);
	edges_pointer_move_to(pointer, 120, 120);
	bool ok = pointer_at(&client, sub, 20, 20, "before the move");
	wl_subsurface_set_position(subsurface, 10, 5);
	wl_surface_commit(window.surface);
	ok = ok && pointer_at(&client, sub, 10, 15, "after the move") &&
			framed(&client, "after the move");
	/* Out past the window's top-left: the window stays where it is. */
	wl_subsurface_set_position(subsurface, -30, -30);
	wl_surface_commit(window.surface);
	ok = ok && pointer_at(&client, window.surface, 20, 20, "moved away");
	pointer->destroy(pointer);
	edges_client_disconnect(&client);
	return ok;
}

static bool restack_under_pointer(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 200, 200, 100, 100)) {
		return false;
	}
	struct wl_subsurface *lower, *upper;
	struct wl_surface *first = edges_subsurface_create(
			&client, window.surface, &lower, 0, 0, 50, 50);
	struct wl_surface *second = edges_subsurface_create(
			&client, window.surface, &upper, 0, 0, 50, 50);
	WlcsPointer *pointer = edges_pointer_create(server);
	edges_pointer_move_to(pointer, 105, 105);
	bool ok = pointer_at(&client, second, 5, 5, "before the restack");
	wl_subsurface_place_below(upper, first);
	wl_surface_commit(window.surface);
	ok = ok && pointer_at(&client, first, 5, 5, "after the restack");
	pointer->destroy(pointer);
	edges_client_disconnect(&client);
	return ok;
}

/* Pressed on one window, dragged over another: the first keeps it. */
static bool drag_keeps_pointer(struct edges_server *server) {
	struct edges_client client;
	struct edges_window a, b;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&a, &client, 100, 100, 100, 100) ||
			!edges_window_create(&b, &client, 100, 100, 300, 100)) {
		return false;
	}
	WlcsPointer *pointer = edges_pointer_create(server);
	edges_pointer_move_to(pointer, 150, 150);
	bool ok = pointer_at(&client, a.surface, 50, 50, "before the press");
	pointer->button_down(pointer, BTN_LEFT);
	edges_pointer_move_to(pointer, 350, 150);
	ok = ok && pointer_at(&client, a.surface, 250, 50, "dragged off");
	pointer->button_up(pointer, BTN_LEFT);
	ok = ok && pointer_at(&client, b.surface, 50, 50, "released");
	pointer->destroy(pointer);
	edges_client_disconnect(&client);
	return ok;
}

/* wlcs's touch calls take whole pixels, not wl_fixed_t (the module's
 * wlcs_input.c says why). */
static bool touch_at(struct edges_client *client, struct wl_surface *surface,
		double x, double y, const char *what) {
	if (!edges_roundtrip(client)) {
		return FAIL("%s: lost fairway", what);
	}
	return CHECK(client->touch_focus == surface &&
					fabs(client->touch_x - x) < 0.01 &&
					fabs(client->touch_y - y) < 0.01,
			"%s: touch on %p at %.2f,%.2f, expected %p at %.2f,%.2f", what,
			(void *)client->touch_focus, client->touch_x, client->touch_y,
			(void *)surface, x, y);
}

static bool touch_leaves_and_comes_back(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 100, 100, 100, 100)) {
		return false;
	}
	WlcsTouch *touch = edges_touch_create(server);
	touch->touch_down(touch, 150, 150);
	bool ok = touch_at(&client, window.surface, 50, 50, "down");
	touch->touch_move(touch, 90, 250);
	ok = ok && touch_at(&client, window.surface, -10, 150, "outside");
	touch->touch_move(touch, 120, 130);
	ok = ok && touch_at(&client, window.surface, 20, 30, "back");
	touch->touch_up(touch);
	touch->destroy(touch);
	edges_client_disconnect(&client);
	return ok;
}

static bool touch_up_when_surface_goes(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	if (!edges_client_connect(&client, server) ||
			!edges_window_create(&window, &client, 200, 200, 100, 100)) {
		return false;
	}
	struct wl_subsurface *subsurface;
	struct wl_surface *sub = edges_subsurface_create(
			&client, window.surface, &subsurface, 10, 10, 50, 50);
	WlcsTouch *touch = edges_touch_create(server);
	touch->touch_down(touch, 120, 120);
	bool ok = touch_at(&client, sub, 10, 10, "down");
	wl_subsurface_destroy(subsurface);
	wl_surface_destroy(sub);
	ok = ok && edges_roundtrip(&client) &&
			CHECK(client.touch_focus == NULL,
					"no touch up when the touched surface went");
	touch->touch_up(touch);
	touch->destroy(touch);
	edges_client_disconnect(&client);
	return ok;
}

static void handle_locked(void *data, struct zwp_locked_pointer_v1 *locked) {
	int *state = data;
	*state = 1;
}

static void handle_unlocked(void *data, struct zwp_locked_pointer_v1 *locked) {
	int *state = data;
	*state = 2;
}

static const struct zwp_locked_pointer_v1_listener locked_listener = {
		.locked = handle_locked,
		.unlocked = handle_unlocked,
};

static void handle_confined(void *data, struct zwp_confined_pointer_v1 *c) {
	int *state = data;
	*state = 1;
}

static void handle_unconfined(void *data, struct zwp_confined_pointer_v1 *c) {
	int *state = data;
	*state = 2;
}

static const struct zwp_confined_pointer_v1_listener confined_listener = {
		.confined = handle_confined,
		.unconfined = handle_unconfined,
};

/*
 * A window at 100,100 of 100x100 with the pointer at its middle, for a
 * constraint to take: NULL if the client or the constraints global is
 * missing.
 */
static WlcsPointer *constraint_setup(struct edges_server *server,
		struct edges_client *client, struct edges_window *window,
		const char *what, bool *ok) {
	if (!edges_client_connect(client, server) ||
			!edges_window_create(window, client, 100, 100, 100, 100)) {
		return NULL;
	}
	if (client->constraints == NULL || client->pointer == NULL) {
		FAIL("no zwp_pointer_constraints_v1 or pointer");
		return NULL;
	}
	WlcsPointer *pointer = edges_pointer_create(server);
	edges_pointer_move_to(pointer, 150, 150);
	*ok = pointer_at(client, window->surface, 50, 50, what);
	return pointer;
}

static bool pointer_lock(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	bool ok;
	WlcsPointer *pointer =
			constraint_setup(server, &client, &window, "before the lock", &ok);
	if (pointer == NULL) {
		return false;
	}
	int state = 0;
	struct zwp_locked_pointer_v1 *locked =
			zwp_pointer_constraints_v1_lock_pointer(client.constraints,
					window.surface, client.pointer, NULL,
					ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
	zwp_locked_pointer_v1_add_listener(locked, &locked_listener, &state);
	ok = ok && edges_roundtrip(&client) &&
			CHECK(state == 1, "no locked event on the focused window");
	edges_pointer_move_by(pointer, 10, 10);
	ok = ok && pointer_at(&client, window.surface, 50, 50, "locked");
	/* Another window takes the keyboard: the lock lets go. */
	struct edges_window other;
	ok = ok && edges_window_create(&other, &client, 50, 50, 400, 400) &&
			CHECK(state == 2, "no unlocked event when the focus went");
	pointer->destroy(pointer);
	edges_client_disconnect(&client);
	return ok;
}

static bool pointer_confine(struct edges_server *server) {
	struct edges_client client;
	struct edges_window window;
	bool ok;
	WlcsPointer *pointer =
			constraint_setup(server, &client, &window, "before", &ok);
	if (pointer == NULL) {
		return false;
	}
	int state = 0;
	struct zwp_confined_pointer_v1 *confined =
			zwp_pointer_constraints_v1_confine_pointer(client.constraints,
					window.surface, client.pointer, NULL,
					ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT);
	zwp_confined_pointer_v1_add_listener(confined, &confined_listener, &state);
	ok = ok && edges_roundtrip(&client) &&
			CHECK(state == 1, "no confined event on the focused window");
	edges_pointer_move_by(pointer, 500, 500);
	ok = ok && edges_roundtrip(&client) &&
			CHECK(client.pointer_focus == window.surface &&
							client.pointer_x >= 99 && client.pointer_x < 100 &&
							client.pointer_y >= 99 && client.pointer_y < 100,
					"confined pointer at %.2f,%.2f on %p", client.pointer_x,
					client.pointer_y, (void *)client.pointer_focus);
	pointer->destroy(pointer);
	edges_client_disconnect(&client);
	return ok;
}

/* Nothing reaches a client before the virtual pointer's frame. */
static bool virtual_pointer_frame(struct edges_server *server) {
	struct edges_client receiver, sender;
	struct edges_window window;
	if (!edges_client_connect(&receiver, server) ||
			!edges_window_create(&window, &receiver, 300, 300, 0, 0) ||
			!edges_client_connect(&sender, server)) {
		return false;
	}
	if (sender.virtual_pointer_manager == NULL) {
		return FAIL("no zwlr_virtual_pointer_manager_v1");
	}
	struct zwlr_virtual_pointer_v1
			*virtual = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(
					sender.virtual_pointer_manager, NULL);
	edges_roundtrip(&receiver);
	int before = receiver.pointer_events;
	zwlr_virtual_pointer_v1_motion_absolute(virtual, 0, 100, 100, 1280, 720);
	zwlr_virtual_pointer_v1_button(
			virtual, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	bool ok = edges_roundtrip(&sender) && edges_roundtrip(&receiver) &&
			CHECK(receiver.pointer_events == before,
					"%d pointer events before the virtual pointer's frame",
					receiver.pointer_events - before);
	zwlr_virtual_pointer_v1_frame(virtual);
	ok = ok && edges_roundtrip(&sender) && edges_roundtrip(&receiver) &&
			CHECK(receiver.pointer_events > before &&
							receiver.pointer_focus == window.surface,
					"the frame let nothing through");
	zwlr_virtual_pointer_v1_button(
			virtual, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_virtual_pointer_v1_frame(virtual);
	edges_roundtrip(&sender);
	edges_client_disconnect(&sender);
	edges_client_disconnect(&receiver);
	return ok;
}

const struct edges_case edges_input_cases[] = {
		{"pointer-enters-at-corner", pointer_enters_at_corner},
		{"surface-grows-under-pointer", surface_grows_under_pointer},
		{"subsurface-moves-under-pointer", subsurface_moves_under_pointer},
		{"restack-under-pointer", restack_under_pointer},
		{"drag-keeps-pointer", drag_keeps_pointer},
		{"touch-leaves-and-comes-back", touch_leaves_and_comes_back},
		{"touch-up-when-surface-goes", touch_up_when_surface_goes},
		{"pointer-lock", pointer_lock},
		{"pointer-confine", pointer_confine},
		{"virtual-pointer-frame", virtual_pointer_frame},
		{NULL, NULL},
};
