#ifndef FAIRWAY_COMPOSITOR_LOCK_IDLE_H
#define FAIRWAY_COMPOSITOR_LOCK_IDLE_H

/*
 * When the user counts as idle: input (any device, real or virtual)
 * restarts the idle timers of ext-idle-notify-v1, and an idle inhibitor
 * on a surface that shows suspends them.
 */

#include <stdbool.h>

struct fw_server;

bool fw_idle_create(struct fw_server *server);
void fw_idle_destroy(struct fw_server *server);
/*
 * Input came from the user, on the server's seat: keyboard.c and
 * cursor.c call it for every event, virtual devices' included.
 */
void fw_idle_activity(struct fw_server *server);
/* What shows may have changed (a frame, a lock): inhibitors count anew. */
void fw_idle_update(struct fw_server *server);

#endif
