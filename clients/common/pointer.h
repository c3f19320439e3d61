#ifndef FAIRWAY_CLIENTS_COMMON_POINTER_H
#define FAIRWAY_CLIENTS_COMMON_POINTER_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

#include "clients/common/globals.h"

/*
 * The seat's pointer as one window sees it: positions over that window
 * (surface-local), with the cursor hidden so that only what the window
 * draws changes on screen. Buttons and axes play no part in the tests.
 */
struct fw_pointer {
	struct wl_pointer *pointer;
	struct wl_surface *surface; /* the window's; set once it exists */
	bool entered;
	/* The last position over the window, and whether one came since
	 * moved was last cleared. */
	double x, y;
	bool moved;
	/* Each position: at enter (no timestamp) and at each motion. */
	void (*position)(void *data, wl_fixed_t sx, wl_fixed_t sy, uint32_t time_ms,
			bool has_time);
	void *data;
};

/*
 * Waits (until deadline_ns) for the seat to have a pointer (a seat without
 * devices gets one once a virtual pointer exists) and takes it. On failure
 * says why ("compositor lacks ..." past the deadline) and returns -1.
 */
int fw_pointer_init(struct fw_pointer *pointer, struct fw_globals *globals,
		const char *prog, uint64_t deadline_ns);
void fw_pointer_finish(struct fw_pointer *pointer);

#endif
