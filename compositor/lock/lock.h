#ifndef FAIRWAY_COMPOSITOR_LOCK_LOCK_H
#define FAIRWAY_COMPOSITOR_LOCK_LOCK_H

/*
 * Who may have input: the session lock (ext-session-lock-v1). While the
 * session is locked only the current locker's lock surfaces get input,
 * every output shows its lock surface, or a solid colour, and no
 * compositor binding runs.
 */

#include <stdbool.h>

struct fw_server;
struct wlr_surface;

bool fw_lock_create(struct fw_server *server);
void fw_lock_destroy(struct fw_server *server);

/* Whether surface may get input or keyboard focus now. NULL: yes. */
bool fw_lock_input_allowed(
		struct fw_server *server, struct wlr_surface *surface);
/* Whether the compositor's key and pointer bindings may run now. */
bool fw_lock_bindings_allowed(struct fw_server *server);
/* Whether the session is locked (a locker may have died since). */
bool fw_lock_session_locked(struct fw_server *server);

#endif
