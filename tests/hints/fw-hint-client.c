#include "xdg-shell-client-protocol.h"
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
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_buffer *buffer;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	int width, height;
	bool configured;
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

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct hint_client *c = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		c->compositor =
				wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		c->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		c->wm_base =
				wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
	} else if (strcmp(interface, wl_seat_interface.name) == 0 &&
			c->seat == NULL) {
		c->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
		wl_seat_add_listener(c->seat, &seat_listener, c);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

static void handle_ping(
		void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
		.ping = handle_ping,
};

static void handle_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct hint_client *c = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	c->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {
		.configure = handle_configure,
};

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
	struct wl_shm_pool *pool = wl_shm_create_pool(c->shm, fd, size);
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
	c->display = wl_display_connect(NULL);
	if (c->display == NULL) {
		fprintf(stderr, "fw-hint-client: cannot connect\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(c->display);
	wl_registry_add_listener(registry, &registry_listener, c);
	wl_display_roundtrip(c->display);
	if (c->compositor == NULL || c->shm == NULL || c->wm_base == NULL) {
		fprintf(stderr, "fw-hint-client: missing globals\n");
		return 1;
	}
	xdg_wm_base_add_listener(c->wm_base, &wm_base_listener, c);
	c->surface = wl_compositor_create_surface(c->compositor);
	c->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, c->surface);
	xdg_surface_add_listener(c->xdg_surface, &xdg_surface_listener, c);
	c->toplevel = xdg_surface_get_toplevel(c->xdg_surface);
	xdg_toplevel_set_title(c->toplevel, "fw-hint-client");
	wl_surface_commit(c->surface);
	while (!c->configured) {
		if (wl_display_dispatch(c->display) < 0) {
			return 1;
		}
	}
	c->buffer = create_buffer(c);
	if (c->buffer == NULL) {
		return 1;
	}
	wl_surface_attach(c->surface, c->buffer, 0, 0);
	wl_surface_damage_buffer(c->surface, 0, 0, c->width, c->height);
	wl_surface_commit(c->surface);
	wl_display_roundtrip(c->display);
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
	if (c->display != NULL) {
		close(wl_display_get_fd(c->display));
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
		if (strncmp(line, "connect", 7) == 0 && client.display == NULL) {
			if (map_window(&client) != 0) {
				return 1;
			}
			printf("mapped\n");
			fflush(stdout);
		} else if (strncmp(line, "spawn", 5) == 0) {
			spawn_children(&client, line);
		} else if (strncmp(line, "disconnect", 10) == 0 &&
				client.display != NULL) {
			wl_display_disconnect(client.display);
			client.display = NULL;
			printf("disconnected\n");
			fflush(stdout);
		}
	}
	return 0;
}
