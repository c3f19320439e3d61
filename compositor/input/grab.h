#ifndef FAIRWAY_COMPOSITOR_INPUT_GRAB_H
#define FAIRWAY_COMPOSITOR_INPUT_GRAB_H

#include <stdbool.h>
#include <stdint.h>
#include <wlr/util/box.h>

struct fw_server;
struct fw_view;

enum fw_grab_mode {
	FW_GRAB_NONE,
	FW_GRAB_MOVE,
	FW_GRAB_RESIZE,
};

/*
 * The interactive move or resize the pointer drives (Super+drag, a press
 * on a title bar, a client's request): grab.c's alone to change. While one
 * runs the pointer's motion goes to it, not to any client.
 */
struct fw_grab {
	enum fw_grab_mode mode;
	struct fw_view *view; /* NULL: none */
	double x, y; /* the pointer where it began */
	struct wlr_box geo; /* the window's geometry then */
	uint32_t edges; /* a resize's, enum wlr_edges */
};

/* The pointer moves or resizes view from here on, until its button goes
 * up. */
void fw_grab_begin(struct fw_server *server, struct fw_view *view,
		enum fw_grab_mode mode, uint32_t edges);
/* Ends the grab on view (NULL: whatever it is on), if any. */
void fw_grab_end(struct fw_server *server, struct fw_view *view);
/* Whether a move or resize holds the pointer. */
bool fw_grab_active(const struct fw_server *server);
/*
 * The pointer moved: the grab's window follows it. False, with nothing
 * done, when no grab holds the pointer.
 */
bool fw_grab_motion(struct fw_server *server);
/*
 * Where view must be, now width by height, to keep the edges opposite
 * those the pointer resizes it by in place: false (and x, y untouched)
 * when it is not being resized.
 */
bool fw_grab_resize_origin(struct fw_server *server, const struct fw_view *view,
		int width, int height, int *x, int *y);

#endif
