#ifndef FAIRWAY_COMPOSITOR_SERVER_H
#define FAIRWAY_COMPOSITOR_SERVER_H

#include "compositor/config/config.h"
#include "compositor/input/grab.h"
#include "scheduler/gate/gate.h"
#include "scheduler/hints/hints.h"
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

/* Stacking layers, bottom to top. */
enum fw_layer {
	FW_LAYER_BACKGROUND,
	FW_LAYER_BOTTOM,
	FW_LAYER_VIEWS,
	FW_LAYER_TOP,
	FW_LAYER_OVERLAY,
	FW_LAYER_POPUPS,
	/* The session lock; while locked, the only layer enabled (lock.c). */
	FW_LAYER_LOCK,
	FW_LAYER_COUNT,
};

struct fw_view;
struct fw_demo;
struct fw_app_rules;
struct fw_lock;
struct fw_idle;
struct fw_sched;
struct fw_frame_schedule;
struct fw_commit_timing;
struct fw_fifo_manager;
struct fw_paint_worker;
struct fw_scheduler_protocol;
struct fw_pointer_constraints;
struct fw_decorations;
struct fw_protocol_checks;
struct fw_text_input_relay;

/*
 * The compositor: what server.c makes, in the order docs/architecture.md
 * gives ("compositor/ by folder"). Each group of fields is one folder's:
 * it writes them, the others may read them (protocols.c, at the root,
 * makes a few globals of the shell, input and lock groups).
 */
struct fw_server {
	/* The root (server.c): the display, the renderer, the scene. */
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct wlr_backend *backend;
	struct wlr_renderer *renderer;
	struct wlr_allocator *allocator;
	struct wlr_compositor *compositor;
	struct wlr_presentation *presentation;
	/* Who is sandboxed by the standard (protocols.c, lock/global_filter.c). */
	struct wlr_security_context_manager_v1 *security_context;
	struct wlr_session *session; /* NULL but on DRM */
	struct wlr_scene *scene;
	/* Keeps each scene output where its output is in the layout. */
	struct wlr_scene_output_layout *scene_layout;
	struct wlr_scene_tree *layers[FW_LAYER_COUNT];
	struct wl_event_source *sigint_source;
	struct wl_event_source *sigterm_source;
	struct wl_event_source *sigchld_source;
	struct fw_demo *demo;
	/* --backend auto found no display to run on: headless, with the demo. */
	bool no_display;
	/* The protocol errors wlroots 0.18 lets through (shell/protocol_checks.c).
	 */
	struct fw_protocol_checks *protocol_checks;
	pid_t child_pid; /* COMMAND, 0 when none or reaped */
	bool started;
	int exit_status;
	uint64_t frames_rendered;

	/* config/: the command line's settings and the file's (flags win). */
	struct fw_config config;
	struct fw_config flags; /* the command line's alone */
	struct wl_event_source *sighup_source; /* reloads the file */

	/* output/ */
	struct wlr_output_layout *output_layout;
	struct wl_list outputs; /* fw_output.link */
	struct wl_listener new_output;
	struct wl_listener layout_change;
	/* An output configuration is being applied head by head: windows are
	 * rescued once, from the final layout, not from each step. */
	bool configuring_outputs;
	struct wlr_output_manager_v1 *output_manager;
	struct wl_listener output_manager_apply;
	struct wl_listener output_manager_test;
	struct wlr_output_power_manager_v1 *output_power;
	struct wl_listener output_power_set_mode;
	/* Deadline-driven frames; NULL with --frame-schedule off. */
	struct fw_frame_schedule *frame_schedule;
	/* Commits held for a target time or a refresh (commit_timing.c,
	 * fifo.c). */
	struct fw_commit_timing *commit_timing;
	struct fw_fifo_manager *fifo;
	/* Surfaces' wp_tearing_control_v1 hints (protocols.c makes it). */
	struct wlr_tearing_control_manager_v1 *tearing_control;
	/* Paints outputs off the main thread; NULL: painted on it (no pixman
	 * renderer, or --paint-thread off). */
	struct fw_paint_worker *paint_worker;

	/* shell/, and the protocols that go with windows (protocols.c) */
	struct wlr_xdg_shell *xdg_shell;
	struct wl_listener new_xdg_toplevel;
	struct wl_listener new_xdg_popup;
	struct wlr_layer_shell_v1 *layer_shell;
	struct wl_listener new_layer_surface;
	struct wlr_xdg_decoration_manager_v1 *xdg_decoration;
	struct wl_listener new_xdg_decoration;
	struct wlr_server_decoration_manager *server_decoration;
	struct fw_decorations *decorations; /* decoration.c */
	struct fw_dialogs *dialogs; /* dialog.c: xdg-dialog-v1 */
	struct wlr_foreign_toplevel_manager_v1 *foreign_toplevel;
	struct wlr_ext_foreign_toplevel_list_v1 *foreign_toplevel_list;
	struct fw_activation *activation; /* shell/activation.h */
	struct wl_list views; /* fw_view.link, front to back */
	int cascade; /* next placement offset step */
	struct wlr_xwayland *xwayland;
	struct wl_listener xwayland_ready;
	struct wl_listener new_xwayland_surface;

	/* input/ */
	struct wlr_seat *seat;
	struct wlr_relative_pointer_manager_v1 *relative_pointer;
	int touch_devices;
	struct wl_listener new_input;
	struct wl_listener request_set_cursor;
	struct wlr_cursor_shape_manager_v1 *cursor_shape;
	struct wl_listener request_set_shape;
	struct wl_listener request_set_selection;
	struct wl_listener request_set_primary_selection;
	struct wl_listener request_start_drag;
	struct wl_list keyboards; /* fw_keyboard.link */
	struct wl_list pointers; /* fw_pointer.link: libinput's (input_config.c) */
	struct wlr_keyboard_group *default_keyboard; /* default_keyboard.c */
	struct fw_x_keymap *x_keymap; /* x_keymap.c */
	struct wlr_virtual_keyboard_manager_v1 *virtual_keyboard;
	struct wl_listener new_virtual_keyboard;
	struct wlr_virtual_pointer_manager_v1 *virtual_pointer;
	struct wl_listener new_virtual_pointer;
	struct wlr_cursor *cursor;
	struct wlr_xcursor_manager *cursor_manager;
	struct wl_listener cursor_motion;
	struct wl_listener cursor_motion_absolute;
	struct wl_listener cursor_button;
	struct wl_listener cursor_axis;
	struct wl_listener cursor_frame;
	struct wl_listener touch_down;
	struct wl_listener touch_up;
	struct wl_listener touch_motion;
	struct wl_listener touch_frame;
	bool cursor_placed; /* a device has moved the pointer (cursor.c) */
	/* A window the pointer moves or resizes: cursor.c's alone. */
	struct fw_grab grab;
	/*
	 * While a button is held, the pointer stays with the surface it was
	 * pressed on (cursor.c): that surface's top-left in layout
	 * coordinates, as it was at the press.
	 */
	double press_origin_x, press_origin_y;
	struct wl_list touch_points; /* fw_touch_point.link (cursor.c) */
	struct wl_event_source *refocus_idle; /* cursor_scene.c */
	struct wl_listener new_surface; /* cursor_scene.c */
	struct wl_list virtual_pointers; /* fw_virtual_pointer.link */
	struct fw_pointer_constraints *constraints; /* pointer_constraints.c */
	struct fw_text_input_relay *text_input; /* text_input.c */

	/* lock/ */
	struct fw_idle *idle_policy; /* idle.c: inhibitors, ext-idle-notify */
	struct fw_lock *lock; /* lock.c: the session lock */
	struct fw_capture *capture; /* lock/capture.c */

	/* sched/ */
	struct fw_sched *sched; /* the socket, the gate, the run loop */
	struct fw_ratings *ratings; /* ratings.c */
	/* What surfaces say they show; made by protocols.c, read by ratings.c. */
	struct wlr_content_type_manager_v1 *content_type;
	struct fw_app_rules *app_rules; /* the file's per-application rules */
	/* fairway-scheduler-unstable-v1; NULL with --scheduler off. */
	struct fw_scheduler_protocol *scheduler_protocol;
};

struct fw_server *fw_server_create(const struct fw_config *config);
/* Listens, starts the backend, XWayland and COMMAND. */
bool fw_server_start(struct fw_server *server);
/* Runs until fw_server_terminate; returns the exit status. */
int fw_server_run(struct fw_server *server);
void fw_server_terminate(struct fw_server *server, int status);
void fw_server_destroy(struct fw_server *server);

#endif
