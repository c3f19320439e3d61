#ifndef FAIRWAY_COMPOSITOR_SHELL_XDG_SHELL_H
#define FAIRWAY_COMPOSITOR_SHELL_XDG_SHELL_H

#include <wayland-server-core.h>

void handle_new_xdg_surface(struct wl_listener *listener, void *data);

#endif
