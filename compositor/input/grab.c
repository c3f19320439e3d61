/*
 * The interactive move and resize, as sway's seatop_move_floating and
 * seatop_resize_floating: the pointer drives a window's place or size
 * until its button goes up. cursor.c hands it the motion; the shells start
 * it (fw_view_begin_interactive), and a window that goes or the session
 * lock ends it.
 */
#include "compositor/input/grab.h"
#include "compositor/output/output.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include <wlr/types/wlr_cursor.h>
#include <wlr/util/edges.h>

void fw_grab_begin(struct fw_server *server, struct fw_view *view,
		enum fw_grab_mode mode, uint32_t edges) {
	struct fw_grab *grab = &server->grab;
	grab->view = view;
	grab->mode = mode;
	grab->x = server->cursor->x;
	grab->y = server->cursor->y;
	int width, height;
	view->impl->get_size(view, &width, &height);
	grab->geo = (struct wlr_box){
			.x = view->x, .y = view->y, .width = width, .height = height};
	grab->edges = edges;
}

void fw_grab_end(struct fw_server *server, struct fw_view *view) {
	struct fw_grab *grab = &server->grab;
	if (view == NULL || grab->view == view) {
		grab->view = NULL;
		grab->mode = FW_GRAB_NONE;
	}
}

bool fw_grab_resize_origin(struct fw_server *server, const struct fw_view *view,
		int width, int height, int *x, int *y) {
	const struct fw_grab *grab = &server->grab;
	if (grab->view != view || grab->mode != FW_GRAB_RESIZE) {
		return false;
	}
	*x = view->x;
	*y = view->y;
	if (grab->edges & WLR_EDGE_LEFT) {
		*x = grab->geo.x + grab->geo.width - width;
	}
	if (grab->edges & WLR_EDGE_TOP) {
		*y = grab->geo.y + grab->geo.height - height;
	}
	return true;
}

static void grab_move(struct fw_server *server) {
	struct fw_grab *grab = &server->grab;
	fw_view_move(grab->view, grab->geo.x + (int)(server->cursor->x - grab->x),
			grab->geo.y + (int)(server->cursor->y - grab->y));
}

static void grab_resize(struct fw_server *server) {
	struct fw_grab *grab = &server->grab;
	struct fw_view *view = grab->view;
	int dx = (int)(server->cursor->x - grab->x);
	int dy = (int)(server->cursor->y - grab->y);
	int left = grab->geo.x;
	int top = grab->geo.y;
	int right = left + grab->geo.width;
	int bottom = top + grab->geo.height;
	if (grab->edges & WLR_EDGE_LEFT) {
		left += dx;
		if (left >= right) {
			left = right - 1;
		}
	} else if (grab->edges & WLR_EDGE_RIGHT) {
		right += dx;
		if (right <= left) {
			right = left + 1;
		}
	}
	if (grab->edges & WLR_EDGE_TOP) {
		top += dy;
		if (top >= bottom) {
			top = bottom - 1;
		}
	} else if (grab->edges & WLR_EDGE_BOTTOM) {
		bottom += dy;
		if (bottom <= top) {
			bottom = top + 1;
		}
	}
	/* The frame stays in what the output leaves for windows. */
	struct fw_output *output =
			fw_output_at(server, grab->geo.x + grab->geo.width / 2.0,
					grab->geo.y + grab->geo.height / 2.0);
	if (output != NULL) {
		struct wlr_box area;
		fw_output_usable_area(output, &area);
		int b, t;
		fw_view_frame_insets(view, &b, &t);
		if (left < area.x + b) {
			left = area.x + b;
		}
		if (top < area.y + t + b) {
			top = area.y + t + b;
		}
		if (right > area.x + area.width - b) {
			right = area.x + area.width - b;
		}
		if (bottom > area.y + area.height - b) {
			bottom = area.y + area.height - b;
		}
		if (right <= left || bottom <= top) {
			return;
		}
	}
	/* xdg views move on commit, once the client took the new size. */
	view->impl->configure(view, left, top, right - left, bottom - top);
	if (view->type == FW_VIEW_XWAYLAND) {
		fw_view_move(view, left, top);
	}
}

bool fw_grab_active(const struct fw_server *server) {
	return server->grab.mode != FW_GRAB_NONE;
}

bool fw_grab_motion(struct fw_server *server) {
	switch (server->grab.mode) {
	case FW_GRAB_MOVE:
		grab_move(server);
		return true;
	case FW_GRAB_RESIZE:
		grab_resize(server);
		return true;
	case FW_GRAB_NONE:
		break;
	}
	return false;
}
