#ifndef FAIRWAY_TESTS_FW_TEST_CLIENT_H
#define FAIRWAY_TESTS_FW_TEST_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

#include "fw-test-lines.h"

struct popup {
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_popup *xdg_popup;
	struct test_buffer *buffer;
	int width, height;
	uint32_t color;
	bool mapped;
};

/* --decoration: what the window asks for, and through which protocol. */
enum fw_decoration_mode {
	FW_DECORATION_SERVER, /* xdg-decoration, server-side (the default) */
	FW_DECORATION_CLIENT, /* xdg-decoration, client-side */
	FW_DECORATION_UNSET, /* xdg-decoration, no preference */
	FW_DECORATION_NONE, /* neither protocol */
	FW_DECORATION_KDE_SERVER,
	FW_DECORATION_KDE_CLIENT,
};

struct test_client {
	struct wl_display *display;
	struct wl_registry *registry;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct wl_keyboard *keyboard;
	struct zwp_idle_inhibit_manager_v1 *idle_inhibit_manager;
	struct zwp_idle_inhibitor_v1 *idle_inhibitor;
	struct xdg_activation_v1 *activation;
	struct zxdg_decoration_manager_v1 *decoration_manager;
	struct zxdg_toplevel_decoration_v1 *toplevel_decoration;
	struct org_kde_kwin_server_decoration_manager *kde_manager;
	struct org_kde_kwin_server_decoration *kde_decoration;
	enum fw_decoration_mode decoration;

	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct test_buffer *buffer;

	uint32_t color;
	uint32_t alpha;
	int buffer_scale;
	int width, height;
	int pending_width, pending_height;
	bool mapped;
	bool running;
	int exit_status;

	const char *title;
	const char *app_id;
	bool move_on_click;
	bool resize_on_click;
	bool want_popup;
	char popup_edge; // --popup-edge: 'r'ight (default), 'b'ottom, 't'op
	int shadow; // --shadow: window geometry this far inside the buffer
	bool truncate_after_map;
	/* Answers nothing: the pool was truncated under it ('truncate'). */
	bool frozen;
	bool maximized;
	bool commands; // --commands: stdin lines drive the window
	struct fw_test_lines lines;
	bool idle_inhibit;
	struct popup popup;

	struct wl_surface *pointer_surface;
	uint32_t input_serial; // of the last key, button or keyboard enter
	struct wl_list buffers; // test_buffer.link
};

/* Prints "WHAT-requested" once the compositor has handled what was just
 * sent. */
void report_when_done(struct test_client *client, const char *what);

/* fw-test-client-decoration.c */
bool fw_test_client_parse_decoration(
		struct test_client *client, const char *mode);
bool fw_test_client_bind_decoration(struct test_client *client,
		struct wl_registry *registry, uint32_t name, const char *interface);
/* After the toplevel is made, before its first commit. */
bool fw_test_client_decorate(struct test_client *client);
void fw_test_client_undecorate(struct test_client *client);

/* fw-test-client-input.c */
extern const struct wl_seat_listener fw_test_client_seat_listener;

#endif
