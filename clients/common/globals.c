#include "clients/common/globals.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "presentation-time-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

static uint32_t min_u32(uint32_t a, uint32_t b) {
	return a < b ? a : b;
}

static void handle_wm_base_ping(
		void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
		.ping = handle_wm_base_ping,
};

static void handle_presentation_clock_id(
		void *data, struct wp_presentation *presentation, uint32_t clk_id) {
	struct fw_globals *globals = data;
	globals->have_presentation_clock = true;
	globals->presentation_clock = (clockid_t)clk_id;
}

static const struct wp_presentation_listener presentation_listener = {
		.clock_id = handle_presentation_clock_id,
};

static void handle_seat_capabilities(
		void *data, struct wl_seat *seat, uint32_t caps) {
	struct fw_globals *globals = data;
	globals->seat_caps = caps;
}

static void handle_seat_name(
		void *data, struct wl_seat *seat, const char *name) {
	/* Only the capabilities matter here. */
}

static const struct wl_seat_listener seat_listener = {
		.capabilities = handle_seat_capabilities,
		.name = handle_seat_name,
};

static void handle_output_geometry(void *data, struct wl_output *output,
		int32_t x, int32_t y, int32_t phys_width, int32_t phys_height,
		int32_t subpixel, const char *make, const char *model,
		int32_t transform) {
	/* The mode gives the size the virtual pointer's extents refer to. */
}

static void handle_output_mode(void *data, struct wl_output *output,
		uint32_t flags, int32_t width, int32_t height, int32_t refresh) {
	struct fw_globals *globals = data;
	if (flags & WL_OUTPUT_MODE_CURRENT) {
		globals->output_width = width;
		globals->output_height = height;
	}
}

static void handle_output_done(void *data, struct wl_output *output) {
	/* Modes are read as they come; done adds nothing. */
}

static void handle_output_scale(
		void *data, struct wl_output *output, int32_t factor) {
	/* Buffers are drawn at scale 1; see clients/README.md. */
}

static const struct wl_output_listener output_listener = {
		.geometry = handle_output_geometry,
		.mode = handle_output_mode,
		.done = handle_output_done,
		.scale = handle_output_scale,
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct fw_globals *globals = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0 &&
			globals->compositor == NULL) {
		globals->compositor = wl_registry_bind(
				registry, name, &wl_compositor_interface, min_u32(version, 4));
	} else if (strcmp(interface, wl_shm_interface.name) == 0 &&
			globals->shm == NULL) {
		globals->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0 &&
			globals->wm_base == NULL) {
		globals->wm_base = wl_registry_bind(
				registry, name, &xdg_wm_base_interface, min_u32(version, 2));
		xdg_wm_base_add_listener(globals->wm_base, &wm_base_listener, globals);
	} else if (strcmp(interface, wp_presentation_interface.name) == 0 &&
			globals->presentation == NULL) {
		globals->presentation =
				wl_registry_bind(registry, name, &wp_presentation_interface, 1);
		wp_presentation_add_listener(
				globals->presentation, &presentation_listener, globals);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 &&
			globals->seat == NULL) {
		globals->seat = wl_registry_bind(
				registry, name, &wl_seat_interface, min_u32(version, 5));
		wl_seat_add_listener(globals->seat, &seat_listener, globals);
	} else if (strcmp(interface,
					   zwlr_virtual_pointer_manager_v1_interface.name) == 0 &&
			globals->virtual_pointer_manager == NULL) {
		globals->virtual_pointer_manager_version = min_u32(version, 2);
		globals->virtual_pointer_manager = wl_registry_bind(registry, name,
				&zwlr_virtual_pointer_manager_v1_interface,
				globals->virtual_pointer_manager_version);
	} else if (strcmp(interface, zxdg_decoration_manager_v1_interface.name) ==
					0 &&
			globals->decoration_manager == NULL) {
		globals->decoration_manager = wl_registry_bind(
				registry, name, &zxdg_decoration_manager_v1_interface, 1);
	} else if (strcmp(interface, wl_output_interface.name) == 0 &&
			globals->output == NULL) {
		globals->output = wl_registry_bind(
				registry, name, &wl_output_interface, min_u32(version, 2));
		wl_output_add_listener(globals->output, &output_listener, globals);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	/* The measurement clients are short-lived; hot-unplug is not handled. */
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

struct wl_display *fw_connect(const char *prog) {
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		const char *name = getenv("WAYLAND_DISPLAY");
		fprintf(stderr, "%s: cannot connect to the Wayland display %s\n", prog,
				name != NULL ? name : "(WAYLAND_DISPLAY unset)");
	}
	return display;
}

int fw_globals_init(struct fw_globals *globals, struct wl_display *display) {
	memset(globals, 0, sizeof(*globals));
	globals->display = display;
	globals->registry = wl_display_get_registry(display);
	if (globals->registry == NULL) {
		return -1;
	}
	wl_registry_add_listener(globals->registry, &registry_listener, globals);
	/* First the globals, then the events sent on binding them. */
	if (wl_display_roundtrip(display) < 0 ||
			wl_display_roundtrip(display) < 0) {
		return -1;
	}
	return 0;
}

void fw_globals_finish(struct fw_globals *globals) {
	if (globals->output != NULL) {
		if (wl_output_get_version(globals->output) >=
				WL_OUTPUT_RELEASE_SINCE_VERSION) {
			wl_output_release(globals->output);
		} else {
			wl_output_destroy(globals->output);
		}
	}
	if (globals->decoration_manager != NULL) {
		zxdg_decoration_manager_v1_destroy(globals->decoration_manager);
	}
	if (globals->virtual_pointer_manager != NULL) {
		zwlr_virtual_pointer_manager_v1_destroy(
				globals->virtual_pointer_manager);
	}
	if (globals->seat != NULL) {
		if (wl_seat_get_version(globals->seat) >=
				WL_SEAT_RELEASE_SINCE_VERSION) {
			wl_seat_release(globals->seat);
		} else {
			wl_seat_destroy(globals->seat);
		}
	}
	if (globals->presentation != NULL) {
		wp_presentation_destroy(globals->presentation);
	}
	if (globals->wm_base != NULL) {
		xdg_wm_base_destroy(globals->wm_base);
	}
	if (globals->shm != NULL) {
		wl_shm_destroy(globals->shm);
	}
	if (globals->compositor != NULL) {
		wl_compositor_destroy(globals->compositor);
	}
	if (globals->registry != NULL) {
		wl_registry_destroy(globals->registry);
	}
	memset(globals, 0, sizeof(*globals));
}

static bool check(bool ok, const char *prog, const char *what) {
	if (!ok) {
		fprintf(stderr, "%s: compositor lacks %s\n", prog, what);
	}
	return ok;
}

int fw_globals_require(
		const struct fw_globals *g, const char *prog, uint32_t needs) {
	bool ok = true;
	if (needs & FW_NEED_COMPOSITOR) {
		ok &= check(g->compositor != NULL, prog, "wl_compositor");
	}
	if (needs & FW_NEED_SHM) {
		ok &= check(g->shm != NULL, prog, "wl_shm");
	}
	if (needs & FW_NEED_XDG_WM_BASE) {
		ok &= check(g->wm_base != NULL, prog, "xdg_wm_base");
	}
	if (needs & FW_NEED_PRESENTATION) {
		if (check(g->presentation != NULL, prog, "wp_presentation")) {
			/*
			 * Timestamps are only comparable on a clock that never jumps;
			 * CLOCK_REALTIME does, so such a compositor is refused.
			 */
			bool steady = g->have_presentation_clock &&
					(g->presentation_clock == CLOCK_MONOTONIC ||
							g->presentation_clock == CLOCK_MONOTONIC_RAW);
			if (!steady) {
				fprintf(stderr,
						"%s: compositor lacks wp_presentation on a monotonic "
						"clock (its clock_id is %d)\n",
						prog, (int)g->presentation_clock);
				ok = false;
			}
		} else {
			ok = false;
		}
	}
	if (needs & (FW_NEED_SEAT | FW_NEED_POINTER)) {
		ok &= check(g->seat != NULL, prog, "wl_seat");
	}
	if ((needs & FW_NEED_POINTER) && g->seat != NULL) {
		ok &= check(g->seat_caps & WL_SEAT_CAPABILITY_POINTER, prog,
				"a wl_seat with the pointer capability");
	}
	if (needs & FW_NEED_VIRTUAL_POINTER) {
		ok &= check(g->virtual_pointer_manager != NULL, prog,
				"zwlr_virtual_pointer_manager_v1");
	}
	if (needs & FW_NEED_OUTPUT) {
		if (check(g->output != NULL, prog, "wl_output")) {
			ok &= check(g->output_width > 0 && g->output_height > 0, prog,
					"a wl_output with a current mode");
		} else {
			ok = false;
		}
	}
	return ok ? 0 : -1;
}
