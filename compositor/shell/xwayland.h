#ifndef FAIRWAY_COMPOSITOR_SHELL_XWAYLAND_H
#define FAIRWAY_COMPOSITOR_SHELL_XWAYLAND_H

#include <stdbool.h>

struct fw_server;
struct wl_client;

bool fw_xwayland_init(struct fw_server *server);
void fw_xwayland_finish(struct fw_server *server);
/* Xwayland's Wayland client, or NULL while there is none. */
struct wl_client *fw_xwayland_client(struct fw_server *server);

#endif
