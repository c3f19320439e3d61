#ifndef FAIRWAY_CLIENTS_COMMON_DRIVE_H
#define FAIRWAY_CLIENTS_COMMON_DRIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "clients/common/globals.h"
#include "clients/common/motion_log.h"
#include "clients/common/options.h"
#include "clients/common/pointer.h"

/*
 * The pointer an echo client moves itself: a zwlr_virtual_pointer_v1 on
 * some connection (the window's own, or one of its own), sending absolute
 * motions in output coordinates along fw_path_point's lap of the window.
 */
struct fw_drive {
	struct fw_globals *globals; /* the virtual pointer's connection */
	struct zwlr_virtual_pointer_v1 *pointer;
	struct fw_size size; /* the window's, for the path */
	/* output position = surface-local position + offset */
	int32_t off_x, off_y;
	uint64_t path_index;
};

/* A virtual pointer on globals' connection (a seat without devices only
 * gets a pointer once one exists). -1 on failure. */
int fw_drive_init(struct fw_drive *drive, struct fw_globals *globals,
		struct fw_size size);
void fw_drive_finish(struct fw_drive *drive);
/* One absolute motion to (ox, oy) in output coordinates. */
void fw_drive_send(
		struct fw_drive *drive, int32_t ox, int32_t oy, uint64_t now);

/*
 * A window cannot ask where it is, so the pointer sweeps the output until
 * the window reports a position: the difference between what was sent and
 * what arrived is its offset. Each step makes a round trip on the drive's
 * connection (the compositor handles the motion), then on the window's
 * when it is another (what that motion sent the window is read). Says why
 * and returns -1 if the pointer never reaches the window.
 */
int fw_drive_locate(struct fw_drive *drive, struct fw_pointer *window,
		struct wl_display *window_display, const char *prog);

/* The next motion on the path: logged (published) and sent, unflushed.
 * -1 when the log is full. */
int fw_drive_step(struct fw_drive *drive, struct fw_motion_log *log);

#endif
