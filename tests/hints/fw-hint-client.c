#include "fw-test-window.h"
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wayland-client.h>

/*
 * A window with extra threads that can hang up on the compositor and stay
 * alive: the hint tests check its threads while connected and after.
 * Starts its threads and prints "ready", then reads commands on stdin:
 * "connect" maps the window (then prints "mapped"), "disconnect" hangs up
 * (then prints "disconnected"); end of input exits. Children, for the
 * application's processes: "spawn N" starts N that sleep ("spawned PID
 * ..."), "spawn-setuid" one that becomes uid 65534, "spawn-exit" one that
 * exits at once and is never reaped, "spawn-exec PATH" one that runs
 * PATH 600 (a setuid program, say) ("spawned PID" each). They die with it
 * (but for a setuid PATH, which the parent-death signal does not reach)
 * and never hold its connection.
 */

struct hint_client {
	struct fw_test_globals globals;
	struct fw_test_window window;
	struct wl_buffer *buffer;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	int width, height;
};

/*
 * The pointer's events are not used: taking a wl_pointer is what makes this
 * client one that receives input, which is what the hints test is about.
 */
static void pointer_enter(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
		wl_fixed_t y) {
}

static void pointer_leave(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface) {
}

static void pointer_motion(void *data, struct wl_pointer *pointer,
		uint32_t time, wl_fixed_t x, wl_fixed_t y) {
}

static void pointer_button(void *data, struct wl_pointer *pointer,
		uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
}

static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time,
		uint32_t axis, wl_fixed_t value) {
}

static const struct wl_pointer_listener pointer_listener = {
		.enter = pointer_enter,
		.leave = pointer_leave,
		.motion = pointer_motion,
		.button = pointer_button,
		.axis = pointer_axis,
};

static void seat_capabilities(
		void *data, struct wl_seat *seat, uint32_t capabilities) {
	struct hint_client *c = data;
	if ((capabilities & WL_SEAT_CAPABILITY_POINTER) && c->pointer == NULL) {
		c->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(c->pointer, &pointer_listener, c);
	}
}

static const struct wl_seat_listener seat_listener = {
		.capabilities = seat_capabilities,
};

static void bind_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version) {
	struct hint_client *c = data;
	if (strcmp(interface, wl_seat_interface.name) == 0 && c->seat == NULL) {
		c->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
		wl_seat_add_listener(c->seat, &seat_listener, c);
	}
}

static struct wl_buffer *create_buffer(struct hint_client *c) {
	int stride = c->width * 4, size = stride * c->height;
	int fd = memfd_create("fw-hint-client", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, size) != 0) {
		return NULL;
	}
	uint32_t *pixels =
			mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	for (int i = 0; i < c->width * c->height; i++) {
		pixels[i] = 0xff3060a0;
	}
	munmap(pixels, (size_t)size);
	struct wl_shm_pool *pool = wl_shm_create_pool(c->globals.shm, fd, size);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(
			pool, 0, c->width, c->height, stride, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return buffer;
}

static void *idle_thread(void *arg) {
	for (;;) {
		pause();
	}
	return NULL;
}

static int map_window(struct hint_client *c) {
	c->globals.bind = bind_global;
	c->globals.data = c;
	if (!fw_test_window_connect(&c->globals, "fw-hint-client")) {
		return 1;
	}
	if (c->globals.compositor == NULL || c->globals.shm == NULL ||
			c->globals.wm_base == NULL) {
		fprintf(stderr, "fw-hint-client: missing globals\n");
		return 1;
	}
	fw_test_window_create(&c->window, &c->globals, "fw-hint-client");
	if (fw_test_window_map(&c->window, c->globals.display) < 0) {
		return 1;
	}
	c->buffer = create_buffer(c);
	if (c->buffer == NULL) {
		return 1;
	}
	struct wl_surface *surface = c->window.surface;
	wl_surface_attach(surface, c->buffer, 0, 0);
	wl_surface_damage_buffer(surface, 0, 0, c->width, c->height);
	wl_surface_commit(surface);
	wl_display_roundtrip(c->globals.display);
	return 0;
}

enum child_kind { CHILD_SLEEPER, CHILD_SETUID, CHILD_EXIT, CHILD_EXEC };

static pid_t spawn(
		struct hint_client *c, enum child_kind kind, const char *path) {
	pid_t pid = fork();
	if (pid != 0) {
		return pid;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (c->globals.display != NULL) {
		close(wl_display_get_fd(c->globals.display));
	}
	if (kind == CHILD_EXIT) {
		_exit(0);
	}
	if (kind == CHILD_EXEC) {
		execl(path, path, "600", (char *)NULL);
		_exit(127);
	}
	if (kind == CHILD_SETUID) {
		if (syscall(SYS_setresuid, 65534, 65534, 65534) != 0) {
			_exit(1);
		}
		/* A change of credentials clears the parent-death signal. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	}
	for (;;) {
		pause();
	}
}

static void spawn_children(struct hint_client *c, const char *line) {
	int count = 1;
	enum child_kind kind = CHILD_SLEEPER;
	char path[256] = "";
	if (strncmp(line, "spawn-exec ", 11) == 0) {
		kind = CHILD_EXEC;
		snprintf(path, sizeof(path), "%s", line + 11);
		path[strcspn(path, "\n")] = '\0';
	} else if (strncmp(line, "spawn-setuid", 12) == 0) {
		kind = CHILD_SETUID;
	} else if (strncmp(line, "spawn-exit", 10) == 0) {
		kind = CHILD_EXIT;
	} else {
		count = atoi(line + 5);
	}
	/* Printed after: a child must not inherit what stdout holds. */
	pid_t *pids = calloc(count > 0 ? (size_t)count : 1, sizeof(*pids));
	for (int i = 0; pids != NULL && i < count; i++) {
		pids[i] = spawn(c, kind, path);
	}
	printf("spawned");
	for (int i = 0; pids != NULL && i < count; i++) {
		printf(" %d", (int)pids[i]);
	}
	printf("\n");
	fflush(stdout);
	free(pids);
}

int main(int argc, char *argv[]) {
	int threads = argc > 1 ? atoi(argv[1]) : 3;
	struct hint_client client = {.width = 1280, .height = 720};
	for (int i = 0; i < threads; i++) {
		pthread_t thread;
		if (pthread_create(&thread, NULL, idle_thread, NULL) != 0) {
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	/* The compositor's events are not needed: only stdin is read. */
	char line[256];
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strncmp(line, "connect", 7) == 0 &&
				client.globals.display == NULL) {
			if (map_window(&client) != 0) {
				return 1;
			}
			printf("mapped\n");
			fflush(stdout);
		} else if (strncmp(line, "spawn", 5) == 0) {
			spawn_children(&client, line);
		} else if (strncmp(line, "disconnect", 10) == 0 &&
				client.globals.display != NULL) {
			wl_display_disconnect(client.globals.display);
			client.globals.display = NULL;
			printf("disconnected\n");
			fflush(stdout);
		}
	}
	return 0;
}
