#ifndef FAIRWAY_COMPOSITOR_SHELL_XDG_SHELL_H
#define FAIRWAY_COMPOSITOR_SHELL_XDG_SHELL_H

#include <stdbool.h>

struct fw_server;

/* Offers xdg_wm_base: its toplevels become views, its popups follow them. */
bool fw_xdg_shell_init(struct fw_server *server);
void fw_xdg_shell_finish(struct fw_server *server);

#endif
