#ifndef FAIRWAY_TESTS_WLCS_EDGES_H
#define FAIRWAY_TESTS_WLCS_EDGES_H

/*
 * fw-edges: fairway's own tests of the protocol's edges, each a scenario a
 * client plays against a real fairway server made by fairway's wlcs module
 * (fairway-wlcs.so, loaded with dlopen as wlcs loads it), whose pointer and
 * touchscreen drive fairway's own input path at exact positions. A case
 * passes or says what it saw instead.
 */
#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

struct edges_server {
	void *module; /* dlopen handle */
	const WlcsServerIntegration *integration;
	WlcsDisplayServer *server;
};

struct edges_client {
	struct edges_server *server;
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_subcompositor *subcompositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct xdg_wm_base *wm_base;
	struct zxdg_decoration_manager_v1 *decoration_manager;
	struct wp_viewporter *viewporter;
	struct zwp_pointer_constraints_v1 *constraints;
	struct zwlr_virtual_pointer_manager_v1 *virtual_pointer_manager;
	struct zwp_text_input_manager_v3 *text_input_manager;
	struct zwp_input_method_manager_v2 *input_method_manager;
	struct zwlr_layer_shell_v1 *layer_shell;

	struct wl_pointer *pointer;
	struct wl_touch *touch;
	struct wl_keyboard *keyboard;

	/* What the client was told, as of its last dispatch. */
	struct wl_surface *pointer_focus;
	double pointer_x, pointer_y;
	int pointer_events; /* enter, leave, motion, button, axis */
	int pointer_frames;
	int pointer_events_in_frame; /* since the last frame */
	struct wl_surface *touch_focus;
	double touch_x, touch_y;
	struct wl_surface *keyboard_focus;
};

struct edges_window {
	struct edges_client *client;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	int configured_width, configured_height;
	uint32_t configures;
};

/* A case: true when it passed; it says why not on stderr. */
typedef bool (*edges_case_func)(struct edges_server *server);

struct edges_case {
	const char *name;
	edges_case_func run;
};

/* The cases, by concern. NULL-terminated. */
extern const struct edges_case edges_protocol_cases[];
extern const struct edges_case edges_input_cases[];
extern const struct edges_case edges_text_cases[];
extern const struct edges_case edges_order_cases[];

/* Says why a case failed, with where, and returns false. */
bool edges_fail(const char *file, int line, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));
#define FAIL(...) edges_fail(__FILE__, __LINE__, __VA_ARGS__)
#define CHECK(cond, ...) ((cond) ? true : FAIL(__VA_ARGS__))

/* edges.c */
bool edges_client_connect(
		struct edges_client *client, struct edges_server *server);
void edges_client_disconnect(struct edges_client *client);
/* false once the client got a protocol error (or lost fairway). */
bool edges_roundtrip(struct edges_client *client);
/*
 * Roundtrips until the client is disconnected by a protocol error, and
 * checks it: on an object of that interface, with that code.
 */
bool edges_expect_error(
		struct edges_client *client, const char *interface, uint32_t code);
/*
 * A pool of SIZE bytes over a new memfd of FILE_SIZE; the fd in *FD (the
 * caller's to close), or closed if FD is NULL. NULL on failure.
 */
struct wl_shm_pool *edges_pool(
		struct edges_client *client, int file_size, int size, int *fd);
/* A width x height ARGB shm buffer of one colour. */
struct wl_buffer *edges_buffer(
		struct edges_client *client, int width, int height, uint32_t argb);
/* A mapped toplevel of that size, its top-left moved to (x, y). */
bool edges_window_create(struct edges_window *window,
		struct edges_client *client, int width, int height, int x, int y);
/* Commits a new width x height buffer of the window's colour. */
bool edges_window_draw(struct edges_window *window, int width, int height);
void edges_window_destroy(struct edges_window *window);
/* Moves the window's top-left to (x, y), as wlcs positions windows. */
void edges_window_move(struct edges_window *window, int x, int y);
/* A subsurface of parent at (x, y), with a buffer, desynchronized. */
struct wl_surface *edges_subsurface_create(struct edges_client *client,
		struct wl_surface *parent, struct wl_subsurface **subsurface, int x,
		int y, int width, int height);

/* The server's devices: positions in layout coordinates. */
WlcsPointer *edges_pointer_create(struct edges_server *server);
void edges_pointer_move_to(WlcsPointer *pointer, double x, double y);
void edges_pointer_move_by(WlcsPointer *pointer, double dx, double dy);
WlcsTouch *edges_touch_create(struct edges_server *server);

#endif
