/*
 * fw-edges: the harness (edges.h says what it is for) and its main.
 *
 * Usage: fw-edges MODULE CASE|--all [FAIRWAY-OPTION...]
 *        fw-edges MODULE --list
 * MODULE is fairway-wlcs.so; the options go to the fairway it makes
 * (`--scheduler off`). --all runs every case, each in a process of its
 * own. Exit status 0 when the case (or every case) passed, 1 when one
 * failed, 2 on a usage error.
 */
#include "tests/wlcs/edges.h"
#include "input-method-unstable-v2-client-protocol.h"
#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "text-input-unstable-v3-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* Longest a case may take, on a loaded machine. */
#define CASE_TIMEOUT_S 60

bool edges_fail(const char *file, int line, const char *fmt, ...) {
	fprintf(stderr, "%s:%d: ", file, line);
	va_list args;
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	return false;
}

static void handle_wm_base_ping(
		void *data, struct xdg_wm_base *wm_base, uint32_t serial) {
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {
		.ping = handle_wm_base_ping,
};

static void pointer_event(struct edges_client *client) {
	client->pointer_events++;
	client->pointer_events_in_frame++;
}

static void handle_pointer_enter(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
		wl_fixed_t y) {
	struct edges_client *client = data;
	client->pointer_focus = surface;
	client->pointer_x = wl_fixed_to_double(x);
	client->pointer_y = wl_fixed_to_double(y);
	pointer_event(client);
}

static void handle_pointer_leave(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface) {
	struct edges_client *client = data;
	if (client->pointer_focus == surface) {
		client->pointer_focus = NULL;
	}
	pointer_event(client);
}

static void handle_pointer_motion(void *data, struct wl_pointer *pointer,
		uint32_t time, wl_fixed_t x, wl_fixed_t y) {
	struct edges_client *client = data;
	client->pointer_x = wl_fixed_to_double(x);
	client->pointer_y = wl_fixed_to_double(y);
	pointer_event(client);
}

static void handle_pointer_button(void *data, struct wl_pointer *pointer,
		uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
	pointer_event(data);
}

static void handle_pointer_axis(void *data, struct wl_pointer *pointer,
		uint32_t time, uint32_t axis, wl_fixed_t value) {
	pointer_event(data);
}

static void handle_pointer_frame(void *data, struct wl_pointer *pointer) {
	struct edges_client *client = data;
	client->pointer_frames++;
	client->pointer_events_in_frame = 0;
}

static void handle_pointer_axis_source(
		void *data, struct wl_pointer *pointer, uint32_t source) {
	pointer_event(data);
}

static void handle_pointer_axis_stop(
		void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis) {
}

static void handle_pointer_axis_discrete(void *data, struct wl_pointer *pointer,
		uint32_t axis, int32_t discrete) {
}

static const struct wl_pointer_listener pointer_listener = {
		.enter = handle_pointer_enter,
		.leave = handle_pointer_leave,
		.motion = handle_pointer_motion,
		.button = handle_pointer_button,
		.axis = handle_pointer_axis,
		.frame = handle_pointer_frame,
		.axis_source = handle_pointer_axis_source,
		.axis_stop = handle_pointer_axis_stop,
		.axis_discrete = handle_pointer_axis_discrete,
};

static void handle_touch_down(void *data, struct wl_touch *touch,
		uint32_t serial, uint32_t time, struct wl_surface *surface, int32_t id,
		wl_fixed_t x, wl_fixed_t y) {
	struct edges_client *client = data;
	client->touch_focus = surface;
	client->touch_x = wl_fixed_to_double(x);
	client->touch_y = wl_fixed_to_double(y);
}

static void handle_touch_up(void *data, struct wl_touch *touch, uint32_t serial,
		uint32_t time, int32_t id) {
	struct edges_client *client = data;
	client->touch_focus = NULL;
}

static void handle_touch_motion(void *data, struct wl_touch *touch,
		uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
	struct edges_client *client = data;
	client->touch_x = wl_fixed_to_double(x);
	client->touch_y = wl_fixed_to_double(y);
}

static void handle_touch_frame(void *data, struct wl_touch *touch) {
}

static void handle_touch_cancel(void *data, struct wl_touch *touch) {
	struct edges_client *client = data;
	client->touch_focus = NULL;
}

static const struct wl_touch_listener touch_listener = {
		.down = handle_touch_down,
		.up = handle_touch_up,
		.motion = handle_touch_motion,
		.frame = handle_touch_frame,
		.cancel = handle_touch_cancel,
};

static void handle_keymap(void *data, struct wl_keyboard *keyboard,
		uint32_t format, int32_t fd, uint32_t size) {
	close(fd);
}

static void handle_keyboard_enter(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface, struct wl_array *keys) {
	struct edges_client *client = data;
	client->keyboard_focus = surface;
}

static void handle_keyboard_leave(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, struct wl_surface *surface) {
	struct edges_client *client = data;
	if (client->keyboard_focus == surface) {
		client->keyboard_focus = NULL;
	}
}

static void handle_key(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t time, uint32_t key, uint32_t state) {
}

static void handle_modifiers(void *data, struct wl_keyboard *keyboard,
		uint32_t serial, uint32_t depressed, uint32_t latched, uint32_t locked,
		uint32_t group) {
}

static void handle_repeat_info(
		void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
}

static const struct wl_keyboard_listener keyboard_listener = {
		.keymap = handle_keymap,
		.enter = handle_keyboard_enter,
		.leave = handle_keyboard_leave,
		.key = handle_key,
		.modifiers = handle_modifiers,
		.repeat_info = handle_repeat_info,
};

static void handle_capabilities(
		void *data, struct wl_seat *seat, uint32_t capabilities) {
	struct edges_client *client = data;
	if ((capabilities & WL_SEAT_CAPABILITY_POINTER) &&
			client->pointer == NULL) {
		client->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(client->pointer, &pointer_listener, client);
	}
	if ((capabilities & WL_SEAT_CAPABILITY_TOUCH) && client->touch == NULL) {
		client->touch = wl_seat_get_touch(seat);
		wl_touch_add_listener(client->touch, &touch_listener, client);
	}
	if ((capabilities & WL_SEAT_CAPABILITY_KEYBOARD) &&
			client->keyboard == NULL) {
		client->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(client->keyboard, &keyboard_listener, client);
	}
}

static void handle_seat_name(
		void *data, struct wl_seat *seat, const char *name) {
}

static const struct wl_seat_listener seat_listener = {
		.capabilities = handle_capabilities,
		.name = handle_seat_name,
};

static void *bind(struct wl_registry *registry, uint32_t name,
		const struct wl_interface *interface, uint32_t version, uint32_t max) {
	return wl_registry_bind(
			registry, name, interface, version < max ? version : max);
}

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct edges_client *client = data;
	if (strcmp(interface, wl_compositor_interface.name) == 0) {
		client->compositor =
				bind(registry, name, &wl_compositor_interface, version, 4);
	} else if (strcmp(interface, wl_subcompositor_interface.name) == 0) {
		client->subcompositor =
				bind(registry, name, &wl_subcompositor_interface, version, 1);
	} else if (strcmp(interface, wl_shm_interface.name) == 0) {
		client->shm = bind(registry, name, &wl_shm_interface, version, 1);
	} else if (strcmp(interface, wl_seat_interface.name) == 0) {
		client->seat = bind(registry, name, &wl_seat_interface, version, 5);
		wl_seat_add_listener(client->seat, &seat_listener, client);
	} else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
		client->wm_base =
				bind(registry, name, &xdg_wm_base_interface, version, 2);
		xdg_wm_base_add_listener(client->wm_base, &wm_base_listener, client);
	} else if (strcmp(interface, zxdg_decoration_manager_v1_interface.name) ==
			0) {
		client->decoration_manager = bind(registry, name,
				&zxdg_decoration_manager_v1_interface, version, 1);
	} else if (strcmp(interface, wp_viewporter_interface.name) == 0) {
		client->viewporter =
				bind(registry, name, &wp_viewporter_interface, version, 1);
	} else if (strcmp(interface, zwp_pointer_constraints_v1_interface.name) ==
			0) {
		client->constraints = bind(registry, name,
				&zwp_pointer_constraints_v1_interface, version, 1);
	} else if (strcmp(interface,
					   zwlr_virtual_pointer_manager_v1_interface.name) == 0) {
		client->virtual_pointer_manager = bind(registry, name,
				&zwlr_virtual_pointer_manager_v1_interface, version, 1);
	} else if (strcmp(interface, zwp_text_input_manager_v3_interface.name) ==
			0) {
		client->text_input_manager = bind(registry, name,
				&zwp_text_input_manager_v3_interface, version, 1);
	} else if (strcmp(interface, zwp_input_method_manager_v2_interface.name) ==
			0) {
		client->input_method_manager = bind(registry, name,
				&zwp_input_method_manager_v2_interface, version, 1);
	} else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0) {
		client->layer_shell = bind(
				registry, name, &zwlr_layer_shell_v1_interface, version, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

bool edges_client_connect(
		struct edges_client *client, struct edges_server *server) {
	*client = (struct edges_client){.server = server};
	int fd = server->server->create_client_socket(server->server);
	if (fd < 0) {
		return FAIL("fairway refused a client: %s", strerror(errno));
	}
	client->display = wl_display_connect_to_fd(fd);
	if (client->display == NULL) {
		close(fd);
		return FAIL("cannot connect to fairway");
	}
	client->registry = wl_display_get_registry(client->display);
	wl_registry_add_listener(client->registry, &registry_listener, client);
	/* The globals, then the seat's capabilities. */
	if (!edges_roundtrip(client) || !edges_roundtrip(client)) {
		return FAIL("fairway's globals could not be listed");
	}
	if (client->compositor == NULL || client->wm_base == NULL ||
			client->shm == NULL || client->seat == NULL) {
		return FAIL("fairway lacks a core global");
	}
	return true;
}

void edges_client_disconnect(struct edges_client *client) {
	if (client->display != NULL) {
		wl_display_disconnect(client->display);
		client->display = NULL;
	}
}

bool edges_roundtrip(struct edges_client *client) {
	return wl_display_roundtrip(client->display) >= 0;
}

bool edges_expect_error(
		struct edges_client *client, const char *interface, uint32_t code) {
	/* A few turns: an error may follow work fairway does at idle. */
	for (int i = 0; i < 5 && edges_roundtrip(client); i++) {
	}
	if (wl_display_get_error(client->display) != EPROTO) {
		return FAIL(
				"no protocol error (expected %s error %u)", interface, code);
	}
	const struct wl_interface *got = NULL;
	uint32_t id;
	uint32_t got_code =
			wl_display_get_protocol_error(client->display, &got, &id);
	return CHECK(got != NULL && strcmp(got->name, interface) == 0 &&
					got_code == code,
			"protocol error %s %u, expected %s %u",
			got != NULL ? got->name : "(none)", got_code, interface, code);
}

struct wl_shm_pool *edges_pool(
		struct edges_client *client, int file_size, int size, int *fd_out) {
	int fd = memfd_create("fw-edges", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, file_size) < 0) {
		if (fd >= 0) {
			close(fd);
		}
		return NULL;
	}
	struct wl_shm_pool *pool = wl_shm_create_pool(client->shm, fd, size);
	if (fd_out != NULL) {
		*fd_out = fd;
	} else {
		close(fd);
	}
	return pool;
}

struct wl_buffer *edges_buffer(
		struct edges_client *client, int width, int height, uint32_t argb) {
	int stride = width * 4, size = stride * height;
	int fd;
	struct wl_shm_pool *pool = edges_pool(client, size, size, &fd);
	if (pool == NULL) {
		return NULL;
	}
	uint32_t *pixels =
			mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (pixels == MAP_FAILED) {
		wl_shm_pool_destroy(pool);
		return NULL;
	}
	for (int i = 0; i < width * height; i++) {
		pixels[i] = argb;
	}
	munmap(pixels, (size_t)size);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(
			pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
	wl_shm_pool_destroy(pool);
	return buffer;
}

static void handle_xdg_surface_configure(
		void *data, struct xdg_surface *xdg_surface, uint32_t serial) {
	struct edges_window *window = data;
	xdg_surface_ack_configure(xdg_surface, serial);
	window->configures++;
}

static const struct xdg_surface_listener xdg_surface_listener = {
		.configure = handle_xdg_surface_configure,
};

static void handle_toplevel_configure(void *data, struct xdg_toplevel *toplevel,
		int32_t width, int32_t height, struct wl_array *states) {
	struct edges_window *window = data;
	window->configured_width = width;
	window->configured_height = height;
}

static void handle_toplevel_close(void *data, struct xdg_toplevel *toplevel) {
}

static const struct xdg_toplevel_listener toplevel_listener = {
		.configure = handle_toplevel_configure,
		.close = handle_toplevel_close,
};

bool edges_window_draw(struct edges_window *window, int width, int height) {
	struct wl_buffer *buffer =
			edges_buffer(window->client, width, height, 0xff3366cc);
	if (buffer == NULL) {
		return FAIL("cannot make a buffer");
	}
	wl_surface_attach(window->surface, buffer, 0, 0);
	wl_surface_damage(window->surface, 0, 0, width, height);
	wl_surface_commit(window->surface);
	return true;
}

bool edges_window_create(struct edges_window *window,
		struct edges_client *client, int width, int height, int x, int y) {
	*window = (struct edges_window){.client = client};
	window->surface = wl_compositor_create_surface(client->compositor);
	window->xdg_surface =
			xdg_wm_base_get_xdg_surface(client->wm_base, window->surface);
	xdg_surface_add_listener(
			window->xdg_surface, &xdg_surface_listener, window);
	window->toplevel = xdg_surface_get_toplevel(window->xdg_surface);
	xdg_toplevel_add_listener(window->toplevel, &toplevel_listener, window);
	wl_surface_commit(window->surface);
	while (window->configures == 0) {
		if (wl_display_dispatch(client->display) < 0) {
			return FAIL("no first configure for a new window");
		}
	}
	if (!edges_window_draw(window, width, height)) {
		return false;
	}
	if (!edges_roundtrip(client)) {
		return FAIL("the window's first buffer was refused");
	}
	edges_window_move(window, x, y);
	return edges_roundtrip(client) || FAIL("lost fairway placing a window");
}

void edges_window_destroy(struct edges_window *window) {
	if (window->toplevel != NULL) {
		xdg_toplevel_destroy(window->toplevel);
		xdg_surface_destroy(window->xdg_surface);
		wl_surface_destroy(window->surface);
		window->toplevel = NULL;
	}
}

void edges_window_move(struct edges_window *window, int x, int y) {
	struct edges_client *client = window->client;
	WlcsDisplayServer *server = client->server->server;
	/* The server finds the surface by its id: it must have seen it. */
	wl_display_roundtrip(client->display);
	server->position_window_absolute(
			server, client->display, window->surface, x, y);
}

struct wl_surface *edges_subsurface_create(struct edges_client *client,
		struct wl_surface *parent, struct wl_subsurface **subsurface, int x,
		int y, int width, int height) {
	struct wl_surface *surface =
			wl_compositor_create_surface(client->compositor);
	*subsurface = wl_subcompositor_get_subsurface(
			client->subcompositor, surface, parent);
	wl_subsurface_set_position(*subsurface, x, y);
	wl_subsurface_set_desync(*subsurface);
	struct wl_buffer *buffer = edges_buffer(client, width, height, 0xffcc6633);
	wl_surface_attach(surface, buffer, 0, 0);
	wl_surface_damage(surface, 0, 0, width, height);
	wl_surface_commit(surface);
	wl_surface_commit(parent);
	/* The server's devices act at once: it must have seen the commits. */
	wl_display_roundtrip(client->display);
	return surface;
}

WlcsPointer *edges_pointer_create(struct edges_server *server) {
	return server->server->create_pointer(server->server);
}

void edges_pointer_move_to(WlcsPointer *pointer, double x, double y) {
	pointer->move_absolute(
			pointer, wl_fixed_from_double(x), wl_fixed_from_double(y));
}

void edges_pointer_move_by(WlcsPointer *pointer, double dx, double dy) {
	pointer->move_relative(
			pointer, wl_fixed_from_double(dx), wl_fixed_from_double(dy));
}

WlcsTouch *edges_touch_create(struct edges_server *server) {
	return server->server->create_touch(server->server);
}

/* Every case table, by concern. */
static const struct edges_case *const tables[] = {
		edges_input_cases,
		edges_text_cases,
		edges_protocol_cases,
		edges_order_cases,
};

static const struct edges_case *find_case(const char *name) {
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		for (const struct edges_case *c = tables[i]; c->name != NULL; c++) {
			if (strcmp(c->name, name) == 0) {
				return c;
			}
		}
	}
	return NULL;
}

static void list_cases(void) {
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		for (const struct edges_case *c = tables[i]; c->name != NULL; c++) {
			printf("%s\n", c->name);
		}
	}
}

/* One case against a fairway of its own, made by the module at path. */
static int run_case(
		const struct edges_case *c, const char *path, int argc, char *argv[]) {
	struct edges_server server = {0};
	server.module = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (server.module == NULL) {
		fprintf(stderr, "fw-edges: %s\n", dlerror());
		return 1;
	}
	server.integration = dlsym(server.module, "wlcs_server_integration");
	if (server.integration == NULL) {
		fprintf(stderr, "fw-edges: %s is no wlcs module\n", path);
		return 1;
	}
	/* A private runtime directory, as run-wlcs.py gives the suite. */
	char runtime[] = "/tmp/fw-edges.XXXXXX";
	if (mkdtemp(runtime) == NULL) {
		fprintf(stderr, "fw-edges: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	setenv("XDG_RUNTIME_DIR", runtime, true);
	/* As wlcs passes them: the program's name, then fairway's options. */
	const char **args = calloc((size_t)argc + 1, sizeof(*args));
	if (args == NULL) {
		return 1;
	}
	int n = 0;
	args[n++] = argv[0];
	for (int i = 3; i < argc; i++) {
		args[n++] = argv[i];
	}
	server.server = server.integration->create_server(n, args);
	server.server->start(server.server);
	bool ok = c->run(&server);
	server.server->stop(server.server);
	server.integration->destroy_server(server.server);
	free(args);
	/* fairway removed its socket and lock as it went. */
	rmdir(runtime);
	printf("%s: %s\n", c->name, ok ? "pass" : "FAIL");
	fflush(stdout);
	return ok ? 0 : 1;
}

/* Every case, each in a process of its own: one that crashes or hangs
 * fairway takes only itself down. */
static int run_all(const char *path, int argc, char *argv[]) {
	int failed = 0, total = 0;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		for (const struct edges_case *c = tables[i]; c->name != NULL; c++) {
			total++;
			pid_t pid = fork();
			if (pid < 0) {
				fprintf(stderr, "fw-edges: fork: %s\n", strerror(errno));
				return 1;
			}
			if (pid == 0) {
				/* A case that hangs is a failure, not a stuck suite. */
				alarm(CASE_TIMEOUT_S);
				_exit(run_case(c, path, argc, argv));
			}
			int status;
			if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
					WEXITSTATUS(status) != 0) {
				if (!WIFEXITED(status)) {
					printf("%s: FAIL (%s)\n", c->name,
							WIFSIGNALED(status) ? strsignal(WTERMSIG(status))
												: "lost");
				}
				failed++;
			}
		}
	}
	printf("%d of %d cases passed\n", total - failed, total);
	return failed > 0 ? 1 : 0;
}

int main(int argc, char *argv[]) {
	if (argc < 3) {
		fprintf(stderr,
				"usage: fw-edges MODULE CASE|--all [FAIRWAY-OPTION...]\n"
				"       fw-edges MODULE --list\n");
		return 2;
	}
	if (strcmp(argv[2], "--list") == 0) {
		list_cases();
		return 0;
	}
	if (strcmp(argv[2], "--all") == 0) {
		return run_all(argv[1], argc, argv);
	}
	const struct edges_case *c = find_case(argv[2]);
	if (c == NULL) {
		fprintf(stderr, "fw-edges: no case '%s' (--list names them)\n",
				argv[2]);
		return 2;
	}
	return run_case(c, argv[1], argc, argv);
}
