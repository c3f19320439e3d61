#ifndef FAIRWAY_COMPOSITOR_INPUT_VIRTUAL_POINTER_H
#define FAIRWAY_COMPOSITOR_INPUT_VIRTUAL_POINTER_H

#include "compositor/input/cursor.h"
#include <stdbool.h>

struct fw_server;
struct wlr_pointer;

/* A virtual pointer's events wait for its frame; adds it to the seat. */
void fw_virtual_pointer_add(
		struct fw_server *server, struct wlr_pointer *wlr_pointer);
/* true when the event of wlr_pointer was held back, to be played at its
 * frame. */
bool fw_virtual_pointer_hold(struct fw_server *server,
		struct wlr_pointer *wlr_pointer, enum fw_pointer_event kind,
		const void *event);

#endif
