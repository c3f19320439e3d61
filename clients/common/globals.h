#ifndef FAIRWAY_CLIENTS_COMMON_GLOBALS_H
#define FAIRWAY_CLIENTS_COMMON_GLOBALS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <wayland-client.h>

enum fw_need {
	FW_NEED_COMPOSITOR = 1 << 0,
	FW_NEED_SHM = 1 << 1,
	FW_NEED_XDG_WM_BASE = 1 << 2,
	FW_NEED_PRESENTATION = 1 << 3,
	FW_NEED_SEAT = 1 << 4,
	FW_NEED_POINTER = 1 << 5, /* a seat with the pointer capability */
	FW_NEED_VIRTUAL_POINTER = 1 << 6,
	FW_NEED_OUTPUT = 1 << 7, /* with a known current mode */
};

struct fw_globals {
	struct wl_display *display;
	struct wl_registry *registry;

	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wp_presentation *presentation;
	struct wl_seat *seat;
	struct zwlr_virtual_pointer_manager_v1 *virtual_pointer_manager;
	struct zxdg_decoration_manager_v1 *decoration_manager;
	struct wl_output *output; /* the first one advertised */

	uint32_t virtual_pointer_manager_version;
	bool have_presentation_clock;
	clockid_t presentation_clock;
	uint32_t seat_caps;
	int32_t output_width, output_height; /* current mode, in pixels */
};

/*
 * Connects to $WAYLAND_DISPLAY. On failure prints why and returns NULL;
 * callers exit non-zero.
 */
struct wl_display *fw_connect(const char *prog);

/* Binds every global the clients know and waits until their state arrived. */
int fw_globals_init(struct fw_globals *globals, struct wl_display *display);

void fw_globals_finish(struct fw_globals *globals);

/*
 * Checks that every global in `needs` (enum fw_need bits) is there. Prints
 * "<prog>: compositor lacks <interface>" for each missing one and returns
 * -1. wp_presentation counts as missing unless its clock is CLOCK_MONOTONIC
 * or CLOCK_MONOTONIC_RAW; callers then time everything on that clock with
 * fw_time_use_clock().
 */
int fw_globals_require(
		const struct fw_globals *globals, const char *prog, uint32_t needs);

#endif
