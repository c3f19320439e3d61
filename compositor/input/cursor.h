#ifndef FAIRWAY_COMPOSITOR_INPUT_CURSOR_H
#define FAIRWAY_COMPOSITOR_INPUT_CURSOR_H

#include <stdbool.h>
#include <stdint.h>

struct fw_server;

bool fw_cursor_init(struct fw_server *server);
void fw_cursor_finish(struct fw_server *server);
void fw_cursor_refocus(struct fw_server *server, uint32_t time_msec);
/*
 * What is under a pointer that stands still changed (a window mapped,
 * went, or moved): its focus follows, as if it had moved there.
 */
void fw_cursor_scene_changed(struct fw_server *server);

#endif
