#ifndef FAIRWAY_COMPOSITOR_SHELL_VIEW_H
#define FAIRWAY_COMPOSITOR_SHELL_VIEW_H

#include "compositor/input/grab.h"
#include <stdbool.h>
#include <wayland-server-core.h>
#include <wlr/util/box.h>

struct fw_output;
struct fw_server;
struct fw_title;
struct fw_view;
struct wl_client;

enum fw_view_type {
	FW_VIEW_XDG,
	FW_VIEW_XWAYLAND,
};

/* What differs between xdg toplevels and X11 windows. */
struct fw_view_impl {
	/* Window geometry size (without decorations). */
	void (*get_size)(struct fw_view *view, int *width, int *height);
	void (*configure)(
			struct fw_view *view, int x, int y, int width, int height);
	void (*set_activated)(struct fw_view *view, bool activated);
	void (*set_maximized)(struct fw_view *view, bool maximized);
	void (*set_fullscreen)(struct fw_view *view, bool fullscreen);
	void (*close)(struct fw_view *view);
	const char *(*get_title)(struct fw_view *view);
	const char *(*get_app_id)(struct fw_view *view);
	/* The mapped window it is a modal dialog of (xdg-dialog), or NULL;
	 * NULL for a kind of window that has none. */
	struct fw_view *(*modal_parent)(struct fw_view *view);
};

struct fw_view {
	enum fw_view_type type;
	const struct fw_view_impl *impl;
	struct fw_server *server;
	struct wl_list link; /* fw_server.views */
	struct wlr_surface *surface; /* NULL while unmapped */

	/* tree holds the frame rects and content below it. */
	struct wlr_scene_tree *tree;
	struct wlr_scene_tree *content;
	struct wlr_scene_rect *titlebar;
	struct wlr_scene_rect *border[4];
	struct fw_title *title; /* titlebar.c: the text on the bar */
	bool decorated;
	bool mapped;
	bool maximized, fullscreen;
	/* It asked for the focus and did not get it: its frame says so until
	 * it is focused (activation.h). */
	bool urgent;

	/* Position of the window geometry's top-left corner. */
	int x, y;
	/* Geometry to come back to after maximize/fullscreen. */
	struct wlr_box saved;

	struct wlr_foreign_toplevel_handle_v1 *toplevel_handle;
	/* ext-foreign-toplevel-list's, while mapped. */
	struct wlr_ext_foreign_toplevel_handle_v1 *list_handle;
	struct wl_listener toplevel_request_activate;
	struct wl_listener toplevel_request_close;
	struct wl_listener toplevel_request_maximize;
	struct wl_listener toplevel_request_fullscreen;
};

#define FW_TITLEBAR_HEIGHT 20
#define FW_BORDER_WIDTH 2

/* Creates the view's (hidden) scene tree; false on allocation failure. */
bool fw_view_init(struct fw_view *view, enum fw_view_type type,
		const struct fw_view_impl *impl, struct fw_server *server);
void fw_view_finish(struct fw_view *view);
/* content is the scene tree of the client's surfaces. */
void fw_view_map(struct fw_view *view, struct wlr_surface *surface,
		struct wlr_scene_tree *content, bool place);
void fw_view_unmap(struct fw_view *view);
void fw_view_focus(struct fw_view *view);
/* Marks the frame of a window that wants attention; focus clears it. */
void fw_view_set_urgent(struct fw_view *view, bool urgent);
void fw_view_move(struct fw_view *view, int x, int y);
void fw_view_update_frame(struct fw_view *view);
void fw_view_maximize(struct fw_view *view, bool maximized);
/*
 * After the exclusive zones on output changed: maximized windows fill its
 * usable area again, and the others move out of the zones.
 */
void fw_view_refit_zones(struct fw_server *server, struct fw_output *output);
/*
 * Fits every window on output to it again, after its size in the layout
 * changed (a new mode, scale or transform): fullscreen ones to the whole
 * output, placed ones to its usable area, each moved and shrunk the least
 * it must. Maximized ones are fitted with the usable area
 * (fw_view_refit_zones).
 */
void fw_view_refit(struct fw_server *server, struct fw_output *output);
void fw_view_fullscreen(struct fw_view *view, bool fullscreen);
/*
 * Before its first map: the window that asked to be maximized or
 * fullscreen is told so, with the size it will have, in its initial
 * configure (xdg-shell clients draw their first frame at that size).
 */
void fw_view_plan_state(struct fw_view *view, bool maximized, bool fullscreen);
void fw_view_close(struct fw_view *view);
/* The pointer moves or resizes the window from here on (input/grab.h). */
void fw_view_begin_interactive(
		struct fw_view *view, enum fw_grab_mode mode, uint32_t edges);
/* Whether fairway draws the window's frame (decoration.c decides). */
void fw_view_set_decorated(struct fw_view *view, bool decorated);
/* The frame around the window geometry: 0 and 0 without one. */
void fw_view_frame_insets(struct fw_view *view, int *border, int *titlebar);
/* The largest window geometry that fits, frame and all, in what output
 * leaves for windows. */
void fw_view_max_size(struct fw_view *view, struct fw_output *output,
		int *width, int *height);

enum fw_frame_part {
	FW_FRAME_OTHER, /* not the title bar: the border, or no frame */
	FW_FRAME_TITLE,
	FW_FRAME_MAXIMIZE,
	FW_FRAME_CLOSE,
};
/* The part of the view's frame at layout position (lx, ly). */
enum fw_frame_part fw_view_frame_part(
		struct fw_view *view, double lx, double ly);
void fw_view_update_title(struct fw_view *view);
struct fw_view *fw_view_at(struct fw_server *server, double lx, double ly,
		struct wlr_surface **surface, double *sx, double *sy);
struct fw_view *fw_view_from_surface(
		struct fw_server *server, struct wlr_surface *surface);
void fw_view_cycle_focus(struct fw_server *server);
struct fw_view *fw_view_focused(struct fw_server *server);
/*
 * A window became or stopped being a modal dialog: the front window is
 * focused again, so that its modal dialogs come above it.
 */
void fw_view_restack_dialogs(struct fw_server *server);
/*
 * The app_ids of client's mapped windows (X windows' classes for
 * Xwayland's), front to back, each once and ended by a NUL, at most max
 * of them and size bytes in all: the bytes written to ids.
 */
size_t fw_view_app_ids(struct fw_server *server, struct wl_client *client,
		char *ids, size_t size, int max);

#endif
