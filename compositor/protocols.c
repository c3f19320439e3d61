#include "compositor/protocols.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include <wlr/types/wlr_data_control_v1.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_export_dmabuf_v1.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_gamma_control_v1.h>
#include <wlr/types/wlr_idle.h>
#include <wlr/types/wlr_keyboard_shortcuts_inhibit_v1.h>
#include <wlr/types/wlr_pointer_gestures_v1.h>
#include <wlr/types/wlr_primary_selection_v1.h>
#include <wlr/types/wlr_relative_pointer_v1.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_tablet_v2.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_xdg_activation_v1.h>
#include <wlr/types/wlr_xdg_foreign_registry.h>
#include <wlr/types/wlr_xdg_foreign_v1.h>
#include <wlr/types/wlr_xdg_foreign_v2.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/util/log.h>

static void handle_request_activate(struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, request_activate);
	struct wlr_xdg_activation_v1_request_activate_event *event = data;
	struct fw_view *view = fw_view_from_surface(server, event->surface);
	if (view != NULL) {
		fw_view_focus(view);
	}
}

bool fw_protocols_init(struct fw_server *server) {
	struct wl_display *display = server->display;
	bool ok = true;
	/* Globals whose defaults need no policy from us. */
	ok = ok && wlr_data_device_manager_create(display) != NULL;
	ok = ok && wlr_gamma_control_manager_v1_create(display) != NULL;
	ok = ok &&
			wlr_xdg_output_manager_v1_create(display, server->output_layout) !=
					NULL;
	ok = ok && wlr_tablet_v2_create(display) != NULL;
	ok = ok && wlr_export_dmabuf_manager_v1_create(display) != NULL;
	ok = ok && wlr_screencopy_manager_v1_create(display) != NULL;
	ok = ok && wlr_data_control_manager_v1_create(display) != NULL;
	ok = ok && wlr_primary_selection_v1_device_manager_create(display) != NULL;
	ok = ok && wlr_viewporter_create(display) != NULL;
	ok = ok && wlr_keyboard_shortcuts_inhibit_v1_create(display) != NULL;
	ok = ok && wlr_pointer_gestures_v1_create(display) != NULL;
	if (!ok) {
		wlr_log(WLR_ERROR, "Cannot create a protocol global");
		return false;
	}

	struct wlr_xdg_foreign_registry *registry =
			wlr_xdg_foreign_registry_create(display);
	if (registry == NULL ||
			wlr_xdg_foreign_v1_create(display, registry) == NULL ||
			wlr_xdg_foreign_v2_create(display, registry) == NULL) {
		return false;
	}

	server->idle = wlr_idle_create(display);
	server->relative_pointer = wlr_relative_pointer_manager_v1_create(display);
	server->foreign_toplevel = wlr_foreign_toplevel_manager_v1_create(display);
	server->xdg_activation = wlr_xdg_activation_v1_create(display);
	if (server->idle == NULL || server->relative_pointer == NULL ||
			server->foreign_toplevel == NULL ||
			server->xdg_activation == NULL) {
		return false;
	}
	fw_listener_connect(&server->request_activate,
			&server->xdg_activation->events.request_activate,
			handle_request_activate);
	return true;
}
