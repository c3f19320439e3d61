/*
 * A virtual pointer's events (wlr-virtual-pointer-unstable-v1) belong
 * together until its frame request, as a device's do until its frame: a
 * client sees none of them before that frame. wlroots emits each motion
 * and button the moment its request arrives, only the axis events with
 * the frame (types/wlr_virtual_pointer_v1.c), so fairway holds them here
 * and plays them through its input path at the frame, then lets the frame
 * through.
 * A client that never sends a frame gets its events played every
 * HOLD_MAX events: what it holds back costs fairway a bounded queue.
 */
#include "compositor/input/virtual_pointer.h"
#include "compositor/input/seat.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>

#define HOLD_MAX 64

struct held_event {
	enum fw_pointer_event kind;
	union {
		struct wlr_pointer_motion_event motion;
		struct wlr_pointer_motion_absolute_event motion_absolute;
		struct wlr_pointer_button_event button;
		struct wlr_pointer_axis_event axis;
	};
};

struct fw_virtual_pointer {
	struct wl_list link; /* fw_server.virtual_pointers */
	struct fw_server *server;
	struct wlr_pointer *wlr_pointer;
	struct held_event held[HOLD_MAX];
	size_t count;
	bool playing;
	struct wl_listener frame;
	struct wl_listener destroy;
};

static struct fw_virtual_pointer *find(
		struct fw_server *server, struct wlr_pointer *wlr_pointer) {
	struct fw_virtual_pointer *pointer;
	wl_list_for_each(pointer, &server->virtual_pointers, link) {
		if (pointer->wlr_pointer == wlr_pointer) {
			return pointer;
		}
	}
	return NULL;
}

static void play(struct fw_virtual_pointer *pointer) {
	pointer->playing = true;
	for (size_t i = 0; i < pointer->count; i++) {
		struct held_event *event = &pointer->held[i];
		fw_cursor_play_event(pointer->server, event->kind, &event->motion);
	}
	pointer->count = 0;
	pointer->playing = false;
}

bool fw_virtual_pointer_hold(struct fw_server *server,
		struct wlr_pointer *wlr_pointer, enum fw_pointer_event kind,
		const void *event) {
	if (wl_list_empty(&server->virtual_pointers)) {
		return false;
	}
	struct fw_virtual_pointer *pointer = find(server, wlr_pointer);
	if (pointer == NULL || pointer->playing) {
		return false;
	}
	if (pointer->count == HOLD_MAX) {
		play(pointer);
	}
	struct held_event *held = &pointer->held[pointer->count++];
	held->kind = kind;
	switch (kind) {
	case FW_POINTER_MOTION:
		held->motion = *(const struct wlr_pointer_motion_event *)event;
		break;
	case FW_POINTER_MOTION_ABSOLUTE:
		held->motion_absolute =
				*(const struct wlr_pointer_motion_absolute_event *)event;
		break;
	case FW_POINTER_BUTTON:
		held->button = *(const struct wlr_pointer_button_event *)event;
		break;
	case FW_POINTER_AXIS:
		held->axis = *(const struct wlr_pointer_axis_event *)event;
		break;
	}
	return true;
}

/* Ahead of wlr_cursor's own frame listener: the events, then the frame. */
static void handle_frame(struct wl_listener *listener, void *data) {
	struct fw_virtual_pointer *pointer =
			wl_container_of(listener, pointer, frame);
	play(pointer);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_virtual_pointer *pointer =
			wl_container_of(listener, pointer, destroy);
	/* What it held goes with it: it never said the events were whole. */
	wl_list_remove(&pointer->link);
	fw_listener_disconnect(&pointer->frame);
	fw_listener_disconnect(&pointer->destroy);
	free(pointer);
}

void fw_virtual_pointer_add(
		struct fw_server *server, struct wlr_pointer *wlr_pointer) {
	struct fw_virtual_pointer *pointer = calloc(1, sizeof(*pointer));
	if (pointer != NULL) {
		pointer->server = server;
		pointer->wlr_pointer = wlr_pointer;
		/* Before fw_seat_add_device attaches it to the cursor. */
		fw_listener_connect(
				&pointer->frame, &wlr_pointer->events.frame, handle_frame);
		fw_listener_connect(&pointer->destroy,
				&wlr_pointer->base.events.destroy, handle_destroy);
		wl_list_insert(&server->virtual_pointers, &pointer->link);
	}
	fw_seat_add_device(server, &wlr_pointer->base);
}
