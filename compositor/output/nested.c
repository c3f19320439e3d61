#include "compositor/output/nested.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/backend/wayland.h>
#include <wlr/backend/x11.h>
#include <wlr/types/wlr_output.h>

/* Those wlroots 0.18's X11 backend looks up (backend/x11/backend.c). */
static const char *const backend_atoms[] = {
		"WM_PROTOCOLS",
		"WM_DELETE_WINDOW",
		"_NET_WM_NAME",
		"UTF8_STRING",
		"_VARIABLE_REFRESH",
};

#define ATOM_COUNT (sizeof(backend_atoms) / sizeof(backend_atoms[0]))

xcb_connection_t *fw_nested_x11_atoms_create(void) {
	xcb_connection_t *conn = xcb_connect(NULL, NULL);
	if (conn == NULL || xcb_connection_has_error(conn)) {
		/* The backend then says what is wrong with $DISPLAY. */
		if (conn != NULL) {
			xcb_disconnect(conn);
		}
		return NULL;
	}
	xcb_intern_atom_cookie_t cookies[ATOM_COUNT];
	for (size_t i = 0; i < ATOM_COUNT; i++) {
		cookies[i] = xcb_intern_atom(
				conn, 0, strlen(backend_atoms[i]), backend_atoms[i]);
	}
	for (size_t i = 0; i < ATOM_COUNT; i++) {
		free(xcb_intern_atom_reply(conn, cookies[i], NULL));
	}
	return conn;
}

void fw_nested_x11_atoms_destroy(xcb_connection_t *conn) {
	/*
	 * An X server forgets its atoms when its last client goes; the
	 * backend's own connection is one by now, so they stay.
	 */
	if (conn != NULL) {
		xcb_disconnect(conn);
	}
}

void fw_nested_name_output(
		struct fw_server *server, struct wlr_output *output) {
	bool x11 = wlr_output_is_x11(output);
	if (!x11 && !wlr_output_is_wl(output)) {
		return;
	}
	const char *socket =
			server->sched != NULL ? fw_sched_socket_name(server->sched) : NULL;
	char title[256];
	snprintf(title, sizeof(title), "fairway: WAYLAND_DISPLAY=%s (%s)",
			socket != NULL ? socket : "?", output->name);
	if (x11) {
		wlr_x11_output_set_title(output, title);
	} else {
		wlr_wl_output_set_title(output, title);
		wlr_wl_output_set_app_id(output, "fairway");
	}
}
