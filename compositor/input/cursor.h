#ifndef FAIRWAY_COMPOSITOR_INPUT_CURSOR_H
#define FAIRWAY_COMPOSITOR_INPUT_CURSOR_H

#include <stdbool.h>
#include <stdint.h>
#include <wlr/util/box.h>

struct fw_server;
struct fw_view;

enum fw_cursor_mode {
	FW_CURSOR_PASSTHROUGH,
	FW_CURSOR_MOVE,
	FW_CURSOR_RESIZE,
};

/*
 * The interactive move or resize the pointer drives (Super+drag, a press
 * on a title bar, a client's request): the cursor's alone to change.
 */
struct fw_cursor_grab {
	enum fw_cursor_mode mode;
	struct fw_view *view; /* NULL: none */
	double x, y; /* the pointer where it began */
	struct wlr_box geo; /* the window's geometry then */
	uint32_t edges; /* a resize's, enum wlr_edges */
};

bool fw_cursor_init(struct fw_server *server);
void fw_cursor_finish(struct fw_server *server);
void fw_cursor_refocus(struct fw_server *server, uint32_t time_msec);
/*
 * What is under a pointer that stands still changed (a window mapped,
 * went, or moved): its focus follows, as if it had moved there.
 */
void fw_cursor_scene_changed(struct fw_server *server);

/*
 * cursor_scene.c: a commit that changes what is under the pointer (a
 * surface's size or input region, a subsurface's place or order) refocuses
 * it, once a turn of the loop.
 */
void fw_cursor_scene_init(struct fw_server *server);
void fw_cursor_scene_finish(struct fw_server *server);

/* What a pointer device reports, as wlr_cursor relays it. */
enum fw_pointer_event {
	FW_POINTER_MOTION,
	FW_POINTER_MOTION_ABSOLUTE,
	FW_POINTER_BUTTON,
	FW_POINTER_AXIS,
};
/* Plays a device's event (a wlr_pointer_*_event) as if it came now. */
void fw_cursor_play_event(struct fw_server *server, enum fw_pointer_event kind,
		const void *event);

/* The pointer moves or resizes view from here on, until its button goes
 * up. */
void fw_cursor_begin_grab(struct fw_server *server, struct fw_view *view,
		enum fw_cursor_mode mode, uint32_t edges);
/* Ends the grab on view (NULL: whatever it is on), if any. */
void fw_cursor_end_grab(struct fw_server *server, struct fw_view *view);
/*
 * Where view must be, now width by height, to keep the edges opposite
 * those the pointer resizes it by in place: false (and x, y untouched)
 * when it is not being resized.
 */
bool fw_cursor_resize_origin(struct fw_server *server,
		const struct fw_view *view, int width, int height, int *x, int *y);

#endif
