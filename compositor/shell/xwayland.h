#ifndef FAIRWAY_COMPOSITOR_SHELL_XWAYLAND_H
#define FAIRWAY_COMPOSITOR_SHELL_XWAYLAND_H

#include <stdbool.h>

struct fw_server;

bool fw_xwayland_init(struct fw_server *server);
void fw_xwayland_finish(struct fw_server *server);

#endif
