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
#include "fw-test-lines.h"
#include "fw-test-loop.h"
#include "fw-test-seat.h"

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
	struct fw_test_seat seat;
	struct fw_test_lines lines;
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

static void handle_registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct locker *locker = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		locker->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		locker->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, wl_seat_interface.name) == 0) {
		fw_test_seat_bind(&locker->seat, registry, name, version);
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
		"  keymap FORMAT, keyboard-enter, keyboard-leave,\n"
		"  key CODE pressed|released, pointer-enter X Y, pointer-leave,\n"
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

/* One line from stdin. */
static void run_command(void *data, char *line) {
	struct locker *locker = data;
	if (strcmp(line, "unlock") == 0) {
		unlock(locker);
	} else if (line[0] != '\0') {
		fprintf(stderr, "fw-test-locker: unknown command '%s'\n", line);
	}
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
	int fd = STDIN_FILENO;
	while (locker->running) {
		enum fw_test_loop_result result =
				fw_test_loop_turn(locker->display, fd, -1);
		if (result == FW_TEST_LOOP_LOST) {
			return report_disconnect(locker);
		} else if (result == FW_TEST_LOOP_FAILED) {
			return 1;
		}
		if (result == FW_TEST_LOOP_FD_READY &&
				!fw_test_lines_read(
						&locker->lines, STDIN_FILENO, run_command, locker)) {
			// Without stdin the locker stays locked until killed.
			fd = -1;
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
	fw_test_seat_finish(&locker->seat);
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
