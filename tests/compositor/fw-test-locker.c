/*
 * A screen locker for the compositor tests. It locks with ext-session-lock-v1,
 * paints each output one colour, reports what it gets on stdout, one line per
 * event, and unlocks when told to on stdin.
 *
 * --violate breaks one rule of ext-session-lock-v1 on purpose, so that the
 * tests can check the protocol error the compositor answers with.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "ext-session-lock-v1-client-protocol.h"
#include "fw-test-buffer.h"

enum violation {
	VIOLATE_NONE,
	VIOLATE_COMMIT_BEFORE_ACK,
	VIOLATE_NULL_BUFFER,
	VIOLATE_WRONG_SIZE,
	VIOLATE_BAD_SERIAL,
	VIOLATE_DUPLICATE_OUTPUT,
	VIOLATE_ROLE,
	VIOLATE_ALREADY_CONSTRUCTED,
	VIOLATE_DESTROY_LOCKED,
	VIOLATE_UNLOCK_UNLOCKED,
};

static const char *const violation_names[] = {
		[VIOLATE_NONE] = "none",
		[VIOLATE_COMMIT_BEFORE_ACK] = "commit-before-ack",
		[VIOLATE_NULL_BUFFER] = "null-buffer",
		[VIOLATE_WRONG_SIZE] = "wrong-size",
		[VIOLATE_BAD_SERIAL] = "bad-serial",
		[VIOLATE_DUPLICATE_OUTPUT] = "duplicate-output",
		[VIOLATE_ROLE] = "role",
		[VIOLATE_ALREADY_CONSTRUCTED] = "already-constructed",
		[VIOLATE_DESTROY_LOCKED] = "destroy-locked",
		[VIOLATE_UNLOCK_UNLOCKED] = "unlock-unlocked",
};

struct locker;

struct lock_output {
	struct wl_list link; // locker.outputs
	struct locker *locker;
	struct wl_output *output;
	uint32_t name;
	struct wl_surface *surface;
	struct ext_session_lock_surface_v1 *lock_surface;
	struct test_buffer *buffer;
	struct wl_callback *frame;
	bool shown;
	// What --violate duplicate-output and role ask for besides.
	struct wl_surface *extra_surface;
	struct ext_session_lock_surface_v1 *extra_lock_surface;
};

struct locker {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct wl_keyboard *keyboard;
	struct wl_pointer *pointer;
	struct ext_session_lock_manager_v1 *lock_manager;
	struct ext_session_lock_v1 *lock;
	struct wl_list outputs; // lock_output.link
	struct wl_list buffers; // test_buffer.link

	uint32_t color;
	bool no_surfaces;
	enum violation violate;
	bool started; // the lock was asked for
	bool locked;
	bool running;
	int status;
};

static void fail(struct locker *locker, const char *why) {
	fprintf(stderr, "fw-test-locker: %s\n", why);
	locker->running = false;
	locker->status = 1;
}

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct lock_output *output = data;
	wl_callback_destroy(callback);
	output->frame = NULL;
	output->shown = true;
	printf("shown\n");
}

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

static void draw(struct lock_output *output, uint32_t width, uint32_t height) {
	struct locker *locker = output->locker;
	if (!test_buffer_show(locker->shm, &locker->buffers, output->surface,
				&output->buffer, (int)width, (int)height, locker->color, 255)) {
		fail(locker, "cannot make a buffer");
		return;
	}
	if (!output->shown && output->frame == NULL) {
		output->frame = wl_surface_frame(output->surface);
		wl_callback_add_listener(output->frame, &frame_listener, output);
	}
	wl_surface_commit(output->surface);
}

static void handle_lock_surface_configure(void *data,
		struct ext_session_lock_surface_v1 *lock_surface, uint32_t serial,
		uint32_t width, uint32_t height) {
	struct lock_output *output = data;
	struct locker *locker = output->locker;
	printf("configured %u %u\n", width, height);
	switch (locker->violate) {
	case VIOLATE_COMMIT_BEFORE_ACK:
		draw(output, width, height);
		return;
	case VIOLATE_BAD_SERIAL:
		ext_session_lock_surface_v1_ack_configure(lock_surface, serial + 1000);
		return;
	case VIOLATE_NULL_BUFFER:
		ext_session_lock_surface_v1_ack_configure(lock_surface, serial);
		wl_surface_attach(output->surface, NULL, 0, 0);
		wl_surface_commit(output->surface);
		return;
	case VIOLATE_WRONG_SIZE:
		ext_session_lock_surface_v1_ack_configure(lock_surface, serial);
		draw(output, width / 2, height);
		return;
	default:
		break;
	}
	ext_session_lock_surface_v1_ack_configure(lock_surface, serial);
	draw(output, width, height);
}

static const struct ext_session_lock_surface_v1_listener lock_surface_listener =
		{
				.configure = handle_lock_surface_configure,
};

static void create_surface(struct lock_output *output) {
	struct locker *locker = output->locker;
	if (output->surface != NULL || locker->no_surfaces) {
		return;
	}
	output->surface = wl_compositor_create_surface(locker->compositor);
	if (locker->violate == VIOLATE_ALREADY_CONSTRUCTED) {
		test_buffer_show(locker->shm, &locker->buffers, output->surface,
				&output->buffer, 64, 64, locker->color, 255);
		wl_surface_commit(output->surface);
	}
	output->lock_surface = ext_session_lock_v1_get_lock_surface(
			locker->lock, output->surface, output->output);
	ext_session_lock_surface_v1_add_listener(
			output->lock_surface, &lock_surface_listener, output);
	if (locker->violate == VIOLATE_DUPLICATE_OUTPUT) {
		output->extra_surface =
				wl_compositor_create_surface(locker->compositor);
		output->extra_lock_surface = ext_session_lock_v1_get_lock_surface(
				locker->lock, output->extra_surface, output->output);
	} else if (locker->violate == VIOLATE_ROLE) {
		output->extra_lock_surface = ext_session_lock_v1_get_lock_surface(
				locker->lock, output->surface, output->output);
	}
}

static void handle_locked(void *data, struct ext_session_lock_v1 *lock) {
	struct locker *locker = data;
	locker->locked = true;
	printf("locked\n");
	if (locker->violate == VIOLATE_DESTROY_LOCKED) {
		ext_session_lock_v1_destroy(locker->lock);
		locker->lock = NULL;
	}
}

static void handle_finished(void *data, struct ext_session_lock_v1 *lock) {
	struct locker *locker = data;
	printf("finished\n");
	locker->running = false;
	locker->status = 3;
}

static const struct ext_session_lock_v1_listener lock_listener = {
		.locked = handle_locked,
		.finished = handle_finished,
};

static void start(struct locker *locker) {
	locker->lock = ext_session_lock_manager_v1_lock(locker->lock_manager);
	ext_session_lock_v1_add_listener(locker->lock, &lock_listener, locker);
	if (locker->violate == VIOLATE_UNLOCK_UNLOCKED) {
		ext_session_lock_v1_unlock_and_destroy(locker->lock);
		locker->lock = NULL;
		return;
	}
	locker->started = true;
	struct lock_output *output;
	wl_list_for_each(output, &locker->outputs, link) {
		create_surface(output);
	}
}

static void destroy_output(struct lock_output *output) {
	if (output->frame != NULL) {
		wl_callback_destroy(output->frame);
	}
	if (output->extra_lock_surface != NULL) {
		ext_session_lock_surface_v1_destroy(output->extra_lock_surface);
	}
	if (output->extra_surface != NULL) {
		wl_surface_destroy(output->extra_surface);
	}
	if (output->lock_surface != NULL) {
		ext_session_lock_surface_v1_destroy(output->lock_surface);
	}
	if (output->surface != NULL) {
		wl_surface_destroy(output->surface);
	}
	wl_output_destroy(output->output);
	wl_list_remove(&output->link);
	free(output);
}

static void unlock(struct locker *locker) {
	if (locker->lock != NULL) {
		if (!locker->locked) {
			fail(locker, "unlock asked before the session locked");
			return;
		}
		ext_session_lock_v1_unlock_and_destroy(locker->lock);
		locker->lock = NULL;
	}
	struct lock_output *output, *tmp;
	wl_list_for_each_safe(output, tmp, &locker->outputs, link) {
		destroy_output(output);
	}
	// The compositor has unlocked once it answers after the request.
	if (wl_display_roundtrip(locker->display) < 0) {
		fail(locker, "lost the compositor while unlocking");
		return;
	}
	printf("unlocked\n");
	locker->running = false;
}

static void handle_keyboard_keymap(void *data, struct wl_keyboard *keyboard,
		uint32_t format, int32_t fd, uint32_t size) {
	close(fd);
}

static void handle_keyboard_enter(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface, struct wl_array *keys) {
	printf("keyboard-enter\n");
}

static void handle_keyboard_leave(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface) {
	printf("keyboard-leave\n");
}

static void handle_keyboard_key(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t time, uint32_t key, uint32_t state) {
	printf("key %u %s\n", key,
			state == WL_KEYBOARD_KEY_STATE_PRESSED ? "pressed" : "released");
}

static void handle_keyboard_modifiers(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t depressed, uint32_t latched, uint32_t locked,
		uint32_t group) {
	// Modifier state does not matter to the tests.
}

static void handle_keyboard_repeat_info(
		void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
	// Key repeat does not matter to the tests.
}

static const struct wl_keyboard_listener keyboard_listener = {
		.keymap = handle_keyboard_keymap,
		.enter = handle_keyboard_enter,
		.leave = handle_keyboard_leave,
		.key = handle_keyboard_key,
		.modifiers = handle_keyboard_modifiers,
		.repeat_info = handle_keyboard_repeat_info,
};

static void handle_pointer_enter(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
		wl_fixed_t y) {
	printf("pointer-enter\n");
}

static void handle_pointer_leave(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface) {
	printf("pointer-leave\n");
}

static void handle_pointer_motion(void *data, struct wl_pointer *pointer,
		uint32_t time, wl_fixed_t x, wl_fixed_t y) {
	// Enter and buttons are enough for the tests.
}

static void handle_pointer_button(void *data, struct wl_pointer *pointer,
		uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
	printf("button %u %s\n", button,
			state == WL_POINTER_BUTTON_STATE_PRESSED ? "pressed" : "released");
}

static void handle_pointer_axis(void *data, struct wl_pointer *pointer,
		uint32_t time, uint32_t axis, wl_fixed_t value) {
	// Scrolling does not matter to the tests.
}

static const struct wl_pointer_listener pointer_listener = {
		.enter = handle_pointer_enter,
		.leave = handle_pointer_leave,
		.motion = handle_pointer_motion,
		.button = handle_pointer_button,
		.axis = handle_pointer_axis,
};

static void handle_seat_capabilities(
		void *data, struct wl_seat *seat, uint32_t caps) {
	struct locker *locker = data;
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && locker->keyboard == NULL) {
		locker->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(locker->keyboard, &keyboard_listener, locker);
	}
	if ((caps & WL_SEAT_CAPABILITY_POINTER) && locker->pointer == NULL) {
		locker->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(locker->pointer, &pointer_listener, locker);
	}
}

static void handle_seat_name(
		void *data, struct wl_seat *seat, const char *name) {
	// The tests use whatever single seat there is.
}

static const struct wl_seat_listener seat_listener = {
		.capabilities = handle_seat_capabilities,
		.name = handle_seat_name,
};

static void handle_registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct locker *locker = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		locker->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		locker->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 &&
			locker->seat == NULL) {
		locker->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
		wl_seat_add_listener(locker->seat, &seat_listener, locker);
	} else if (strcmp(interface, ext_session_lock_manager_v1_interface.name) ==
			0) {
		locker->lock_manager = wl_registry_bind(
				registry, name, &ext_session_lock_manager_v1_interface, 1);
	} else if (strcmp(interface, wl_output_interface.name) == 0) {
		struct lock_output *output = calloc(1, sizeof(*output));
		if (output == NULL) {
			fail(locker, "out of memory");
			return;
		}
		output->locker = locker;
		output->name = name;
		output->output =
				wl_registry_bind(registry, name, &wl_output_interface, 1);
		wl_list_insert(locker->outputs.prev, &output->link);
		// A locker covers outputs that come while it is locked too.
		if (locker->started) {
			create_surface(output);
		}
	}
}

static void handle_registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	struct locker *locker = data;
	struct lock_output *output;
	wl_list_for_each(output, &locker->outputs, link) {
		if (output->name == name) {
			destroy_output(output);
			return;
		}
	}
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_registry_global,
		.global_remove = handle_registry_global_remove,
};

static bool parse_color(const char *arg, uint32_t *color) {
	char *end;
	unsigned long value = strtoul(arg, &end, 16);
	if (strlen(arg) != 6 || *end != '\0') {
		return false;
	}
	*color = (uint32_t)value;
	return true;
}

static const char usage[] =
		"usage: fw-test-locker [options]\n"
		"  --color RRGGBB     colour of the lock surfaces (default 30c060)\n"
		"  --no-surfaces      lock without lock surfaces\n"
		"  --violate RULE     break one rule of ext-session-lock-v1:\n"
		"                     commit-before-ack, null-buffer, wrong-size,\n"
		"                     bad-serial, duplicate-output, role,\n"
		"                     already-constructed, destroy-locked,\n"
		"                     unlock-unlocked\n"
		"stdin, one command a line: unlock\n"
		"stdout, one line an event: locked, finished, configured W H, "
		"shown,\n"
		"  keyboard-enter, key CODE pressed|released, pointer-enter,\n"
		"  button CODE pressed|released, unlocked, error INTERFACE CODE\n"
		"Exit status: 0 unlocked, 1 failure, 2 usage, 3 finished, 4 protocol "
		"error.\n";

static int parse_options(struct locker *locker, int argc, char *argv[]) {
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--color") == 0 && i + 1 < argc) {
			if (!parse_color(argv[++i], &locker->color)) {
				fprintf(stderr, "bad colour: %s\n", argv[i]);
				return 2;
			}
		} else if (strcmp(arg, "--no-surfaces") == 0) {
			locker->no_surfaces = true;
		} else if (strcmp(arg, "--violate") == 0 && i + 1 < argc) {
			const char *rule = argv[++i];
			size_t count = sizeof(violation_names) / sizeof(*violation_names);
			locker->violate = VIOLATE_NONE;
			for (size_t v = 1; v < count; v++) {
				if (strcmp(rule, violation_names[v]) == 0) {
					locker->violate = (enum violation)v;
				}
			}
			if (locker->violate == VIOLATE_NONE) {
				fprintf(stderr, "unknown rule: %s\n", rule);
				fputs(usage, stderr);
				return 2;
			}
		} else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			fputs(usage, stdout);
			return 0;
		} else {
			fputs(usage, stderr);
			return 2;
		}
	}
	return -1;
}

/* Runs one line from stdin; false when stdin is done. */
static bool read_command(struct locker *locker) {
	static char line[256];
	static size_t used;
	ssize_t n = read(STDIN_FILENO, line + used, sizeof(line) - 1 - used);
	if (n <= 0) {
		return false;
	}
	used += (size_t)n;
	char *newline;
	while ((newline = memchr(line, '\n', used)) != NULL) {
		*newline = '\0';
		if (strcmp(line, "unlock") == 0) {
			unlock(locker);
		} else if (line[0] != '\0') {
			fprintf(stderr, "fw-test-locker: unknown command '%s'\n", line);
		}
		size_t rest = used - (size_t)(newline + 1 - line);
		memmove(line, newline + 1, rest);
		used = rest;
	}
	if (used == sizeof(line) - 1) {
		used = 0;
	}
	return true;
}

static int report_disconnect(struct locker *locker) {
	const struct wl_interface *interface = NULL;
	uint32_t id;
	int error = wl_display_get_error(locker->display);
	if (error == EPROTO) {
		uint32_t code =
				wl_display_get_protocol_error(locker->display, &interface, &id);
		// A destructor's object (unlock_and_destroy) has no interface left.
		printf("error %s %u\n",
				interface != NULL ? interface->name : "destroyed", code);
		fflush(stdout);
		return 4;
	}
	printf("disconnected\n");
	fflush(stdout);
	fprintf(stderr, "fw-test-locker: lost the compositor (error %d)\n", error);
	return 1;
}

static int run(struct locker *locker) {
	struct pollfd fds[2] = {
			{.fd = wl_display_get_fd(locker->display), .events = POLLIN},
			{.fd = STDIN_FILENO, .events = POLLIN},
	};
	nfds_t nfds = 2;
	while (locker->running) {
		while (wl_display_prepare_read(locker->display) != 0) {
			if (wl_display_dispatch_pending(locker->display) < 0) {
				return report_disconnect(locker);
			}
		}
		if (wl_display_flush(locker->display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(locker->display);
			return report_disconnect(locker);
		}
		int n = poll(fds, nfds, -1);
		if (n < 0 && errno != EINTR) {
			wl_display_cancel_read(locker->display);
			fprintf(stderr, "poll: %s\n", strerror(errno));
			return 1;
		}
		if (n > 0 && (fds[0].revents & (POLLIN | POLLERR | POLLHUP))) {
			if (wl_display_read_events(locker->display) < 0) {
				return report_disconnect(locker);
			}
		} else {
			wl_display_cancel_read(locker->display);
		}
		if (wl_display_dispatch_pending(locker->display) < 0) {
			return report_disconnect(locker);
		}
		if (nfds == 2 && fds[1].revents != 0 && !read_command(locker)) {
			// Without stdin the locker stays locked until killed.
			nfds = 1;
		}
	}
	return locker->status;
}

static void cleanup(struct locker *locker) {
	struct lock_output *output, *tmp;
	wl_list_for_each_safe(output, tmp, &locker->outputs, link) {
		destroy_output(output);
	}
	struct test_buffer *buffer, *buffer_tmp;
	wl_list_for_each_safe(buffer, buffer_tmp, &locker->buffers, link) {
		test_buffer_free(buffer);
	}
	if (locker->lock != NULL) {
		ext_session_lock_v1_destroy(locker->lock);
	}
	if (locker->keyboard != NULL) {
		wl_keyboard_destroy(locker->keyboard);
	}
	if (locker->pointer != NULL) {
		wl_pointer_destroy(locker->pointer);
	}
	if (locker->seat != NULL) {
		wl_seat_destroy(locker->seat);
	}
	if (locker->lock_manager != NULL) {
		ext_session_lock_manager_v1_destroy(locker->lock_manager);
	}
	if (locker->shm != NULL) {
		wl_shm_destroy(locker->shm);
	}
	if (locker->compositor != NULL) {
		wl_compositor_destroy(locker->compositor);
	}
	wl_registry_destroy(locker->registry);
	wl_display_disconnect(locker->display);
}

int main(int argc, char *argv[]) {
	struct locker locker = {
			.color = 0x30c060,
			.running = true,
	};
	wl_list_init(&locker.outputs);
	wl_list_init(&locker.buffers);
	int status = parse_options(&locker, argc, argv);
	if (status >= 0) {
		return status;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	locker.display = wl_display_connect(NULL);
	if (locker.display == NULL) {
		fprintf(stderr, "fw-test-locker: cannot connect to the compositor\n");
		return 1;
	}
	locker.registry = wl_display_get_registry(locker.display);
	wl_registry_add_listener(locker.registry, &registry_listener, &locker);
	if (wl_display_roundtrip(locker.display) < 0) {
		status = report_disconnect(&locker);
		cleanup(&locker);
		return status;
	}
	if (locker.compositor == NULL || locker.shm == NULL ||
			locker.lock_manager == NULL) {
		fprintf(stderr,
				"fw-test-locker: the compositor lacks "
				"ext_session_lock_manager_v1\n");
		cleanup(&locker);
		return 1;
	}
	start(&locker);
	status = run(&locker);
	cleanup(&locker);
	return status;
}
