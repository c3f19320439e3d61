/*
 * A window made of the newer globals, for the tests: its buffer is a
 * single-pixel buffer (wp_single_pixel_buffer_v1) of opaque red stretched
 * to SIZE x SIZE by a viewport, shown at half opacity
 * (wp_alpha_modifier_v1); it asks for the crosshair cursor shape
 * (wp_cursor_shape_v1) when the pointer enters; and it lists the windows
 * ext_foreign_toplevel_list_v1 shows; it asks for async presentation
 * (wp_tearing_control_v1). Prints "shown" once its frame was
 * drawn, then "toplevel TITLE APP_ID" for each window listed and "listed".
 * Stays until stdin closes.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>
#include <wayland-client.h>

#include "alpha-modifier-v1-client-protocol.h"
#include "cursor-shape-v1-client-protocol.h"
#include "ext-foreign-toplevel-list-v1-client-protocol.h"
#include "fw-test-window.h"
#include "tearing-control-v1-client-protocol.h"

#define SIZE 200

struct listed {
	struct wl_list link;
	char *title, *app_id;
};

struct app {
	struct fw_test_globals globals;
	struct wl_seat *seat;
	struct wp_alpha_modifier_v1 *alpha;
	struct wp_cursor_shape_manager_v1 *shapes;
	struct ext_foreign_toplevel_list_v1 *list;
	struct wp_tearing_control_manager_v1 *tearing;
	struct wp_cursor_shape_device_v1 *shape_device;
	struct wl_list listed;
	bool drawn;
};

static void handle_title(void *data,
		struct ext_foreign_toplevel_handle_v1 *handle, const char *title) {
	struct listed *listed = data;
	free(listed->title);
	listed->title = strdup(title);
}

static void handle_app_id(void *data,
		struct ext_foreign_toplevel_handle_v1 *handle, const char *app_id) {
	struct listed *listed = data;
	free(listed->app_id);
	listed->app_id = strdup(app_id);
}

static void handle_identifier(void *data,
		struct ext_foreign_toplevel_handle_v1 *handle, const char *id) {
	// Windows are told apart by title here.
}

static void handle_handle_done(
		void *data, struct ext_foreign_toplevel_handle_v1 *handle) {
	// Printed once all have come.
}

static void handle_closed(
		void *data, struct ext_foreign_toplevel_handle_v1 *handle) {
	// The windows listed stay for the test.
}

static const struct ext_foreign_toplevel_handle_v1_listener handle_listener = {
		.closed = handle_closed,
		.done = handle_handle_done,
		.title = handle_title,
		.app_id = handle_app_id,
		.identifier = handle_identifier,
};

static void handle_toplevel(void *data,
		struct ext_foreign_toplevel_list_v1 *list,
		struct ext_foreign_toplevel_handle_v1 *handle) {
	struct app *app = data;
	struct listed *listed = calloc(1, sizeof(*listed));
	if (listed == NULL) {
		abort();
	}
	wl_list_insert(app->listed.prev, &listed->link);
	ext_foreign_toplevel_handle_v1_add_listener(
			handle, &handle_listener, listed);
}

static void handle_finished(
		void *data, struct ext_foreign_toplevel_list_v1 *list) {
	// The list stays for the compositor's life.
}

static const struct ext_foreign_toplevel_list_v1_listener list_listener = {
		.toplevel = handle_toplevel,
		.finished = handle_finished,
};

static void handle_enter(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
		wl_fixed_t y) {
	struct app *app = data;
	wp_cursor_shape_device_v1_set_shape(app->shape_device, serial,
			WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_CROSSHAIR);
	printf("shape set\n");
}

static void handle_leave(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface) {
}

static void handle_motion(void *data, struct wl_pointer *pointer, uint32_t time,
		wl_fixed_t x, wl_fixed_t y) {
}

static void handle_button(void *data, struct wl_pointer *pointer,
		uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
}

static void handle_axis(void *data, struct wl_pointer *pointer, uint32_t time,
		uint32_t axis, wl_fixed_t value) {
}

static const struct wl_pointer_listener pointer_listener = {
		.enter = handle_enter,
		.leave = handle_leave,
		.motion = handle_motion,
		.button = handle_button,
		.axis = handle_axis,
};

static void bind_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version) {
	struct app *app = data;
	if (strcmp(interface, wl_seat_interface.name) == 0 && app->seat == NULL) {
		app->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
	} else if (strcmp(interface, wp_alpha_modifier_v1_interface.name) == 0) {
		app->alpha = wl_registry_bind(
				registry, name, &wp_alpha_modifier_v1_interface, 1);
	} else if (strcmp(interface, wp_cursor_shape_manager_v1_interface.name) ==
			0) {
		app->shapes = wl_registry_bind(
				registry, name, &wp_cursor_shape_manager_v1_interface, 1);
	} else if (strcmp(interface,
					   wp_tearing_control_manager_v1_interface.name) == 0) {
		app->tearing = wl_registry_bind(
				registry, name, &wp_tearing_control_manager_v1_interface, 1);
	} else if (strcmp(interface, ext_foreign_toplevel_list_v1_interface.name) ==
			0) {
		app->list = wl_registry_bind(
				registry, name, &ext_foreign_toplevel_list_v1_interface, 1);
		ext_foreign_toplevel_list_v1_add_listener(
				app->list, &list_listener, app);
	}
}

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct app *app = data;
	app->drawn = true;
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

int main(int argc, char *argv[]) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct app app = {0};
	wl_list_init(&app.listed);
	app.globals.bind = bind_global;
	app.globals.data = &app;
	if (!fw_test_window_connect(&app.globals, "fw-test-globals")) {
		return 1;
	}
	struct wl_display *display = app.globals.display;
	if (app.globals.compositor == NULL || app.seat == NULL ||
			app.globals.wm_base == NULL || app.globals.viewporter == NULL ||
			app.globals.pixels == NULL || app.alpha == NULL ||
			app.shapes == NULL || app.list == NULL || app.tearing == NULL) {
		fprintf(stderr, "fw-test-globals: a global is missing\n");
		return 1;
	}
	struct wl_pointer *pointer = wl_seat_get_pointer(app.seat);
	wl_pointer_add_listener(pointer, &pointer_listener, &app);
	app.shape_device =
			wp_cursor_shape_manager_v1_get_pointer(app.shapes, pointer);

	struct fw_test_window window = {0};
	fw_test_window_create(&window, &app.globals, "fw-test-globals");
	xdg_toplevel_set_app_id(window.toplevel, "org.fairway.TestGlobals");
	struct wl_surface *surface = window.surface;
	struct wp_viewport *viewport =
			wp_viewporter_get_viewport(app.globals.viewporter, surface);
	struct wp_alpha_modifier_surface_v1 *alpha =
			wp_alpha_modifier_v1_get_surface(app.alpha, surface);
	/* Kept, and nothing changes: headless cannot flip at once. */
	struct wp_tearing_control_v1 *tearing =
			wp_tearing_control_manager_v1_get_tearing_control(
					app.tearing, surface);
	wp_tearing_control_v1_set_presentation_hint(
			tearing, WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC);
	if (fw_test_window_map(&window, display) < 0) {
		return 1;
	}
	struct wl_buffer *red =
			wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
					app.globals.pixels, UINT32_MAX, 0, 0, UINT32_MAX);
	wl_surface_attach(surface, red, 0, 0);
	wp_viewport_set_destination(viewport, SIZE, SIZE);
	wp_alpha_modifier_surface_v1_set_multiplier(alpha, UINT32_MAX / 2);
	wl_surface_damage_buffer(surface, 0, 0, INT32_MAX, INT32_MAX);
	struct wl_callback *frame = wl_surface_frame(surface);
	wl_callback_add_listener(frame, &frame_listener, &app);
	wl_surface_commit(surface);
	if (fw_test_window_dispatch_until(display, &app.drawn) < 0) {
		return 1;
	}
	printf("shown\n");
	if (wl_display_roundtrip(display) < 0) {
		return 1;
	}
	struct listed *listed;
	wl_list_for_each(listed, &app.listed, link) {
		printf("toplevel %s %s\n", listed->title ? listed->title : "-",
				listed->app_id ? listed->app_id : "-");
	}
	printf("listed\n");
	/* Pointer events until stdin closes. */
	int fd = wl_display_get_fd(display);
	for (;;) {
		fd_set fds;
		FD_ZERO(&fds);
		FD_SET(fd, &fds);
		FD_SET(STDIN_FILENO, &fds);
		wl_display_flush(display);
		if (select(fd + 1, &fds, NULL, NULL, NULL) < 0) {
			if (errno == EINTR) {
				continue;
			}
			break;
		}
		if (FD_ISSET(STDIN_FILENO, &fds)) {
			char byte;
			if (read(STDIN_FILENO, &byte, 1) <= 0) {
				break;
			}
		}
		if (FD_ISSET(fd, &fds) && wl_display_dispatch(display) < 0) {
			return 1;
		}
	}
	wl_display_disconnect(display);
	return 0;
}
