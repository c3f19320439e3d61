#include "compositor/protocols.h"
#include "compositor/lock/capture.h"
#include "compositor/server.h"
#include "compositor/shell/activation.h"
#include <wlr/types/wlr_alpha_modifier_v1.h>
#include <wlr/types/wlr_content_type_v1.h>
#include <wlr/types/wlr_data_control_v1.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_export_dmabuf_v1.h>
#include <wlr/types/wlr_ext_foreign_toplevel_list_v1.h>
#include <wlr/types/wlr_foreign_toplevel_management_v1.h>
#include <wlr/types/wlr_fractional_scale_v1.h>
#include <wlr/types/wlr_gamma_control_v1.h>
#include <wlr/types/wlr_keyboard_shortcuts_inhibit_v1.h>
#include <wlr/types/wlr_pointer_gestures_v1.h>
#include <wlr/types/wlr_primary_selection_v1.h>
#include <wlr/types/wlr_relative_pointer_v1.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_security_context_v1.h>
#include <wlr/types/wlr_single_pixel_buffer_v1.h>
#include <wlr/types/wlr_tablet_v2.h>
#include <wlr/types/wlr_tearing_control_v1.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_xdg_foreign_registry.h>
#include <wlr/types/wlr_xdg_foreign_v1.h>
#include <wlr/types/wlr_xdg_foreign_v2.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/util/log.h>

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
	struct wlr_export_dmabuf_manager_v1 *export_dmabuf =
			wlr_export_dmabuf_manager_v1_create(display);
	struct wlr_screencopy_manager_v1 *screencopy =
			wlr_screencopy_manager_v1_create(display);
	struct wlr_data_control_manager_v1 *data_control =
			wlr_data_control_manager_v1_create(display);
	ok = ok && export_dmabuf != NULL && screencopy != NULL &&
			data_control != NULL;
	/* What reads the screen and the clipboard stops while locked. */
	ok = ok &&
			(server->capture = fw_capture_create(
					 server, screencopy, export_dmabuf)) != NULL;
	ok = ok && wlr_primary_selection_v1_device_manager_create(display) != NULL;
	ok = ok && wlr_viewporter_create(display) != NULL;
	/* wlr_scene tells each surface its output's scale as it enters. */
	ok = ok && wlr_fractional_scale_manager_v1_create(display, 1) != NULL;
	ok = ok && wlr_keyboard_shortcuts_inhibit_v1_create(display) != NULL;
	ok = ok && wlr_pointer_gestures_v1_create(display) != NULL;
	/* The scene draws both (wlr_scene_buffer's opacity for the alpha). */
	ok = ok && wlr_single_pixel_buffer_manager_v1_create(display) != NULL;
	ok = ok && wlr_alpha_modifier_v1_create(display) != NULL;
	/* Kept per surface; honoured for a fullscreen window on DRM
	 * (output/output.c). */
	ok = ok &&
			(server->tearing_control = wlr_tearing_control_manager_v1_create(
					 display, 1)) != NULL;
	/* Video and games are rated output sooner (sched/ratings.c). */
	ok = ok &&
			(server->content_type = wlr_content_type_manager_v1_create(
					 display, 1)) != NULL;
	/* Sandboxes name their clients (lock/global_filter.c reads it). */
	ok = ok &&
			(server->security_context = wlr_security_context_manager_v1_create(
					 display)) != NULL;
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

	server->relative_pointer = wlr_relative_pointer_manager_v1_create(display);
	server->foreign_toplevel = wlr_foreign_toplevel_manager_v1_create(display);
	server->foreign_toplevel_list =
			wlr_ext_foreign_toplevel_list_v1_create(display, 1);
	server->activation = fw_activation_create(server);
	return server->relative_pointer != NULL &&
			server->foreign_toplevel != NULL &&
			server->foreign_toplevel_list != NULL && server->activation != NULL;
}
