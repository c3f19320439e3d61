/*
 * A window that says what it shows through wp_content_type_v1 and reads
 * its own ratings class through fairway's scheduler manager after each of
 * its frames is presented: "frame N class C", one a line, where C is the
 * manager's class number (background 0, idle 1, output 2, interactive 3).
 * Each frame changes the whole window. Needs the manager: the test names
 * this program in "scheduler manager".
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "content-type-v1-client-protocol.h"
#include "fairway-scheduler-unstable-v1-client-protocol.h"
#include "fw-test-buffer.h"
#include "fw-test-window.h"
#include "presentation-time-client-protocol.h"

#define SIZE 200
#define STAT_CLASS 22

struct app {
	struct fw_test_globals globals;
	struct wp_presentation *presentation;
	struct wp_content_type_manager_v1 *content_types;
	struct fairway_scheduler_manager_v1 *manager;
	struct wl_list buffers;
	struct test_buffer *buffer;
	bool presented, discarded;
	int rounds;
	int64_t class; /* its own, -1 until a stats event came */
	struct fairway_scheduler_client_v1 *self;
};

static void handle_info(void *data, struct fairway_scheduler_client_v1 *handle,
		uint32_t id, int32_t pid, uint32_t uid, const char *comm,
		uint32_t flags) {
	struct app *app = data;
	if (flags & FAIRWAY_SCHEDULER_CLIENT_V1_FLAGS_SELF) {
		app->self = handle;
	}
}

static void handle_app_id(void *data,
		struct fairway_scheduler_client_v1 *handle, const char *app_id) {
	// Itself is known by its flag.
}

static void handle_client_done(
		void *data, struct fairway_scheduler_client_v1 *handle) {
	// Its info came whole.
}

static void handle_client_period(void *data,
		struct fairway_scheduler_client_v1 *handle, uint32_t period_ms) {
	// Only subscribe_all is used.
}

static void handle_stats(void *data, struct fairway_scheduler_client_v1 *handle,
		struct wl_array *values) {
	struct app *app = data;
	if (handle == app->self &&
			values->size >= (STAT_CLASS + 1) * sizeof(int64_t)) {
		// The wire aligns an array to 4 bytes only.
		int64_t class;
		memcpy(&class,
				(const char *)values->data + STAT_CLASS * sizeof(int64_t),
				sizeof(class));
		app->class = class;
	}
}

static void handle_closed(
		void *data, struct fairway_scheduler_client_v1 *handle) {
	// The others come and go.
}

static const struct fairway_scheduler_client_v1_listener client_listener = {
		.info = handle_info,
		.app_id = handle_app_id,
		.done = handle_client_done,
		.period = handle_client_period,
		.stats = handle_stats,
		.closed = handle_closed,
};

static void handle_client(void *data,
		struct fairway_scheduler_manager_v1 *manager,
		struct fairway_scheduler_client_v1 *handle) {
	fairway_scheduler_client_v1_add_listener(handle, &client_listener, data);
}

static void handle_manager_done(
		void *data, struct fairway_scheduler_manager_v1 *manager) {
	// Every client was announced.
}

static void handle_period(void *data,
		struct fairway_scheduler_manager_v1 *manager, uint32_t period_ms) {
	// As asked.
}

static void handle_round_done(
		void *data, struct fairway_scheduler_manager_v1 *manager) {
	struct app *app = data;
	app->rounds++;
}

static const struct fairway_scheduler_manager_v1_listener manager_listener = {
		.client = handle_client,
		.done = handle_manager_done,
		.period = handle_period,
		.round_done = handle_round_done,
};

static void bind_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version) {
	struct app *app = data;
	if (strcmp(interface, wp_presentation_interface.name) == 0) {
		app->presentation =
				wl_registry_bind(registry, name, &wp_presentation_interface, 1);
	} else if (strcmp(interface, wp_content_type_manager_v1_interface.name) ==
			0) {
		app->content_types = wl_registry_bind(
				registry, name, &wp_content_type_manager_v1_interface, 1);
	} else if (strcmp(interface, fairway_scheduler_manager_v1_interface.name) ==
			0) {
		app->manager = wl_registry_bind(
				registry, name, &fairway_scheduler_manager_v1_interface, 1);
		fairway_scheduler_manager_v1_add_listener(
				app->manager, &manager_listener, app);
	}
}

static void handle_sync_output(void *data,
		struct wp_presentation_feedback *feedback, struct wl_output *output) {
	// Any output will do.
}

static void handle_presented(void *data,
		struct wp_presentation_feedback *feedback, uint32_t tv_sec_hi,
		uint32_t tv_sec_lo, uint32_t tv_nsec, uint32_t refresh, uint32_t seq_hi,
		uint32_t seq_lo, uint32_t flags) {
	struct app *app = data;
	app->presented = true;
	wp_presentation_feedback_destroy(feedback);
}

static void handle_discarded(
		void *data, struct wp_presentation_feedback *feedback) {
	struct app *app = data;
	app->discarded = true;
	wp_presentation_feedback_destroy(feedback);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
		.sync_output = handle_sync_output,
		.presented = handle_presented,
		.discarded = handle_discarded,
};

static enum wp_content_type_v1_type type_of(const char *name, bool *ok) {
	static const char *const names[] = {"none", "photo", "video", "game"};
	static const enum wp_content_type_v1_type types[] = {
			WP_CONTENT_TYPE_V1_TYPE_NONE,
			WP_CONTENT_TYPE_V1_TYPE_PHOTO,
			WP_CONTENT_TYPE_V1_TYPE_VIDEO,
			WP_CONTENT_TYPE_V1_TYPE_GAME,
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		if (strcmp(name, names[i]) == 0) {
			*ok = true;
			return types[i];
		}
	}
	*ok = false;
	return WP_CONTENT_TYPE_V1_TYPE_NONE;
}

static const char usage[] =
		"usage: fw-test-content none|photo|video|game FRAMES\n"
		"Shows FRAMES whole-window frames of the content type, printing\n"
		"\"frame N class C\" once each is presented.\n";

int main(int argc, char *argv[]) {
	bool ok = false;
	enum wp_content_type_v1_type type =
			argc == 3 ? type_of(argv[1], &ok) : WP_CONTENT_TYPE_V1_TYPE_NONE;
	int frames = ok ? atoi(argv[2]) : 0;
	if (frames <= 0) {
		fputs(usage, stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct app app = {.class = -1};
	wl_list_init(&app.buffers);
	app.globals.bind = bind_global;
	app.globals.data = &app;
	if (!fw_test_window_connect(&app.globals, "fw-test-content")) {
		return 1;
	}
	struct wl_display *display = app.globals.display;
	if (wl_display_roundtrip(display) < 0) {
		return 1;
	}
	if (app.globals.compositor == NULL || app.globals.shm == NULL ||
			app.globals.wm_base == NULL || app.presentation == NULL ||
			app.content_types == NULL || app.manager == NULL ||
			app.self == NULL) {
		fprintf(stderr, "fw-test-content: a global is missing%s\n",
				app.manager == NULL ? " (the scheduler manager)" : "");
		return 1;
	}
	fairway_scheduler_manager_v1_subscribe_all(app.manager, 100);
	struct fw_test_window window = {0};
	fw_test_window_create(&window, &app.globals, "fw-test-content");
	struct wl_surface *surface = window.surface;
	struct wp_content_type_v1 *content_type =
			wp_content_type_manager_v1_get_surface_content_type(
					app.content_types, surface);
	wp_content_type_v1_set_content_type(content_type, type);
	if (fw_test_window_map(&window, display) < 0) {
		return 1;
	}
	for (int frame = 1; frame <= frames;) {
		uint32_t color = frame % 2 ? 0xff3060c0 : 0xffc06030;
		if (!test_buffer_show(app.globals.shm, &app.buffers, surface,
					&app.buffer, SIZE, SIZE, color, 255)) {
			return 1;
		}
		struct wp_presentation_feedback *feedback =
				wp_presentation_feedback(app.presentation, surface);
		wp_presentation_feedback_add_listener(
				feedback, &feedback_listener, &app);
		app.presented = app.discarded = false;
		wl_surface_commit(surface);
		while (!app.presented && !app.discarded) {
			if (wl_display_dispatch(display) < 0) {
				return 1;
			}
		}
		if (app.discarded) {
			continue; /* not shown: not one of its presented frames */
		}
		/* The class as it is once this frame counted. */
		int rounds = app.rounds;
		while (app.rounds <= rounds) {
			if (wl_display_dispatch(display) < 0) {
				return 1;
			}
		}
		printf("frame %d class %lld\n", frame, (long long)app.class);
		frame++;
	}
	wp_content_type_v1_destroy(content_type);
	wl_display_disconnect(display);
	return 0;
}
