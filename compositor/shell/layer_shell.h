#ifndef FAIRWAY_COMPOSITOR_SHELL_LAYER_SHELL_H
#define FAIRWAY_COMPOSITOR_SHELL_LAYER_SHELL_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct fw_output;
struct fw_server;
struct wlr_box;
struct wlr_surface;
struct wlr_xdg_popup;

/* Offers wlr-layer-shell: panels, backgrounds, launchers on the outputs. */
bool fw_layer_shell_init(struct fw_server *server);
void fw_layer_shell_finish(struct fw_server *server);
void fw_layer_shell_arrange(struct fw_output *output);
/* link is an element of fw_output.layer_surfaces. */
void fw_layer_shell_close(struct wl_list *link);

/*
 * True while a top or overlay layer surface holds the keyboard alone
 * (exclusive interactivity): windows then get no keyboard focus.
 */
bool fw_layer_shell_grabs_keyboard(struct fw_server *server);

/*
 * A press on surface: gives the keyboard to the layer surface it belongs
 * to, where that one takes it. False when surface is no layer surface's.
 */
bool fw_layer_shell_focus_clicked(
		struct fw_server *server, struct wlr_surface *surface);

/*
 * Where a popup of a layer surface, or of one of its popups, may go: the
 * output of that layer surface, in its coordinates. False when the popup
 * belongs to no layer surface on an output.
 */
bool fw_layer_shell_popup_box(struct wlr_xdg_popup *popup, struct wlr_box *box);

#endif
