#ifndef FAIRWAY_COMPOSITOR_INPUT_CURSOR_SCENE_H
#define FAIRWAY_COMPOSITOR_INPUT_CURSOR_SCENE_H

struct fw_server;

/*
 * A commit that changes what is under the pointer (a surface's size or
 * input region, a subsurface's place or order) refocuses it, once a turn
 * of the loop.
 */
void fw_cursor_scene_init(struct fw_server *server);
void fw_cursor_scene_finish(struct fw_server *server);
/*
 * What is under a pointer that stands still changed (a window mapped,
 * went, or moved): its focus follows, as if it had moved there.
 */
void fw_cursor_scene_changed(struct fw_server *server);

#endif
