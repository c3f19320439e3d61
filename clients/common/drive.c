#include "clients/common/drive.h"

#include <math.h>
#include <stdio.h>

#include "clients/common/path.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

/* Distance between probe positions when looking for the window. */
#define LOCATE_STEP 40
/* The path stays this far inside the window, this many pixels a step. */
#define PATH_MARGIN 20
#define PATH_STEP 3

int fw_drive_init(struct fw_drive *drive, struct fw_globals *globals,
		struct fw_size size) {
	drive->globals = globals;
	drive->size = size;
	drive->pointer = globals->virtual_pointer_manager_version >= 2
			? zwlr_virtual_pointer_manager_v1_create_virtual_pointer_with_output(
					  globals->virtual_pointer_manager, globals->seat,
					  globals->output)
			: zwlr_virtual_pointer_manager_v1_create_virtual_pointer(
					  globals->virtual_pointer_manager, globals->seat);
	return drive->pointer != NULL ? 0 : -1;
}

void fw_drive_finish(struct fw_drive *drive) {
	if (drive->pointer != NULL) {
		zwlr_virtual_pointer_v1_destroy(drive->pointer);
		drive->pointer = NULL;
	}
}

void fw_drive_send(
		struct fw_drive *drive, int32_t ox, int32_t oy, uint64_t now) {
	zwlr_virtual_pointer_v1_motion_absolute(drive->pointer,
			(uint32_t)(now / 1000000u), (uint32_t)ox, (uint32_t)oy,
			(uint32_t)drive->globals->output_width,
			(uint32_t)drive->globals->output_height);
	zwlr_virtual_pointer_v1_frame(drive->pointer);
}

int fw_drive_locate(struct fw_drive *drive, struct fw_pointer *window,
		struct wl_display *window_display, const char *prog) {
	struct wl_display *display = drive->globals->display;
	for (int attempt = 0; attempt < 3; attempt++) {
		for (int32_t y = LOCATE_STEP / 2; y < drive->globals->output_height;
				y += LOCATE_STEP) {
			for (int32_t x = LOCATE_STEP / 2; x < drive->globals->output_width;
					x += LOCATE_STEP) {
				if (fw_stop_requested()) {
					return -1;
				}
				window->moved = false;
				fw_drive_send(drive, x, y, fw_now_ns());
				if (wl_display_roundtrip(display) < 0 ||
						(window_display != display &&
								wl_display_roundtrip(window_display) < 0)) {
					return -1;
				}
				if (window->entered && window->moved) {
					drive->off_x = x - (int32_t)lround(window->x);
					drive->off_y = y - (int32_t)lround(window->y);
					return 0;
				}
			}
		}
	}
	fprintf(stderr, "%s: the virtual pointer never reached our window\n", prog);
	return -1;
}

int fw_drive_step(struct fw_drive *drive, struct fw_motion_log *log) {
	struct fw_motion *m = fw_motion_log_next(log);
	if (m == NULL) {
		return -1;
	}
	fw_path_point(drive->size, PATH_MARGIN, PATH_STEP, drive->path_index++,
			&m->x, &m->y);
	m->gen_ns = fw_now_ns();
	fw_motion_log_publish(log);
	fw_drive_send(drive, m->x + drive->off_x, m->y + drive->off_y, m->gen_ns);
	return 0;
}
