#ifndef FAIRWAY_COMPOSITOR_OUTPUT_NESTED_H
#define FAIRWAY_COMPOSITOR_OUTPUT_NESTED_H

#include <xcb/xcb.h>

struct fw_server;
struct wlr_output;

/*
 * Makes the X server of $DISPLAY know every atom wlroots' X11 backend
 * names, and holds them there while the backend connects: the backend
 * only looks them up, and on a server that never heard of one (a bare
 * Xvfb, an Xwayland without a window manager's atoms) it sets properties
 * named by no atom, which the server refuses with an error each. Returns
 * the connection that holds them, or NULL; release it with
 * fw_nested_x11_atoms_destroy once the backend is connected.
 */
xcb_connection_t *fw_nested_x11_atoms_create(void);
void fw_nested_x11_atoms_destroy(xcb_connection_t *conn);

/*
 * Names the window of a nested output after fairway and the
 * WAYLAND_DISPLAY it serves: "fairway: WAYLAND_DISPLAY=NAME (OUTPUT)".
 * Does nothing for an output of another backend.
 */
void fw_nested_name_output(struct fw_server *server, struct wlr_output *output);

#endif
