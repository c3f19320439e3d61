#ifndef FAIRWAY_COMPOSITOR_INPUT_CURSOR_H
#define FAIRWAY_COMPOSITOR_INPUT_CURSOR_H

#include <stdbool.h>
#include <stdint.h>

struct fw_server;

bool fw_cursor_init(struct fw_server *server);
void fw_cursor_finish(struct fw_server *server);
void fw_cursor_refocus(struct fw_server *server, uint32_t time_msec);
/*
 * Picks the pointer's focus again, as if it had moved where it is, without
 * counting it as input: true if its client heard of it (an enter, a leave
 * or a motion), which a frame must then close.
 */
bool fw_cursor_update_focus(struct fw_server *server, uint32_t time_msec);

/* What a pointer device reports, as wlr_cursor relays it. */
enum fw_pointer_event {
	FW_POINTER_MOTION,
	FW_POINTER_MOTION_ABSOLUTE,
	FW_POINTER_BUTTON,
	FW_POINTER_AXIS,
};
/* Plays a device's event (a wlr_pointer_*_event) as if it came now. */
void fw_cursor_play_event(struct fw_server *server, enum fw_pointer_event kind,
		const void *event);

#endif
