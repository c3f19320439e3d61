#ifndef FAIRWAY_COMPOSITOR_SHELL_DECORATION_H
#define FAIRWAY_COMPOSITOR_SHELL_DECORATION_H

#include <stdbool.h>

struct fw_server;
struct wlr_surface;

/* Who draws windows' frames, as they and fairway agree (decoration.c). */
bool fw_decoration_init(struct fw_server *server);
void fw_decoration_finish(struct fw_server *server);
/* Whether the window of surface gets fairway's frame, as negotiated. */
bool fw_decoration_server_side(
		struct fw_server *server, struct wlr_surface *surface);
/* The configuration's default changed: every window is asked again. */
void fw_decoration_apply_config(struct fw_server *server);

#endif
