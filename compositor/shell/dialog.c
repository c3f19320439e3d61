#include "compositor/shell/dialog.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include "xdg-dialog-v1-protocol.h"
#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/addon.h>

struct fw_dialogs {
	struct fw_server *server;
	struct wl_global *global;
};

/* One xdg_dialog_v1: kept on its toplevel's surface as an addon. */
struct fw_dialog {
	struct fw_dialogs *dialogs;
	struct wl_resource *resource;
	struct wlr_xdg_toplevel *toplevel; /* NULL once it went */
	bool modal;
	struct wlr_addon addon;
	struct wl_listener toplevel_destroy;
};

static const struct xdg_dialog_v1_interface dialog_impl;

static void dialog_forget_toplevel(struct fw_dialog *dialog) {
	if (dialog->toplevel == NULL) {
		return;
	}
	wlr_addon_finish(&dialog->addon);
	fw_listener_disconnect(&dialog->toplevel_destroy);
	dialog->toplevel = NULL;
}

static void addon_destroy(struct wlr_addon *addon) {
	struct fw_dialog *dialog = wl_container_of(addon, dialog, addon);
	dialog_forget_toplevel(dialog);
}

static const struct wlr_addon_interface addon_impl = {
		.name = "fw_dialog",
		.destroy = addon_destroy,
};

static struct fw_dialog *dialog_of(
		struct fw_dialogs *dialogs, struct wlr_xdg_toplevel *toplevel) {
	struct wlr_addon *addon = wlr_addon_find(
			&toplevel->base->surface->addons, dialogs, &addon_impl);
	struct fw_dialog *dialog = NULL;
	return addon != NULL ? wl_container_of(addon, dialog, addon) : NULL;
}

bool fw_dialog_is_modal(
		struct fw_dialogs *dialogs, struct wlr_xdg_toplevel *toplevel) {
	if (dialogs == NULL || toplevel == NULL) {
		return false;
	}
	struct fw_dialog *dialog = dialog_of(dialogs, toplevel);
	return dialog != NULL && dialog->modal;
}

static void handle_toplevel_destroy(struct wl_listener *listener, void *data) {
	struct fw_dialog *dialog =
			wl_container_of(listener, dialog, toplevel_destroy);
	dialog_forget_toplevel(dialog);
}

/* A dialog made modal or not is raised with its parent from the next
 * focus on; the parent is refocused now so that it shows at once. */
static void set_modal(struct fw_dialog *dialog, bool modal) {
	if (dialog->toplevel == NULL || dialog->modal == modal) {
		return;
	}
	dialog->modal = modal;
	fw_view_restack_dialogs(dialog->dialogs->server);
}

static void dialog_handle_set_modal(
		struct wl_client *client, struct wl_resource *resource) {
	set_modal(wl_resource_get_user_data(resource), true);
}

static void dialog_handle_unset_modal(
		struct wl_client *client, struct wl_resource *resource) {
	set_modal(wl_resource_get_user_data(resource), false);
}

static void dialog_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct xdg_dialog_v1_interface dialog_impl = {
		.destroy = dialog_handle_destroy,
		.set_modal = dialog_handle_set_modal,
		.unset_modal = dialog_handle_unset_modal,
};

/* Its effects go with it (the protocol's "unapply its effects"). */
static void dialog_resource_destroy(struct wl_resource *resource) {
	struct fw_dialog *dialog = wl_resource_get_user_data(resource);
	bool modal = dialog->modal && dialog->toplevel != NULL;
	struct fw_server *server = dialog->dialogs->server;
	dialog_forget_toplevel(dialog);
	free(dialog);
	if (modal) {
		fw_view_restack_dialogs(server);
	}
}

static void manager_handle_get_xdg_dialog(struct wl_client *client,
		struct wl_resource *resource, uint32_t id,
		struct wl_resource *toplevel_resource) {
	struct fw_dialogs *dialogs = wl_resource_get_user_data(resource);
	struct wlr_xdg_toplevel *toplevel =
			wlr_xdg_toplevel_from_resource(toplevel_resource);
	if (toplevel != NULL && dialog_of(dialogs, toplevel) != NULL) {
		wl_resource_post_error(resource, XDG_WM_DIALOG_V1_ERROR_ALREADY_USED,
				"the xdg_toplevel already has an xdg_dialog_v1");
		return;
	}
	struct fw_dialog *dialog = calloc(1, sizeof(*dialog));
	if (dialog == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	dialog->resource = wl_resource_create(client, &xdg_dialog_v1_interface,
			wl_resource_get_version(resource), id);
	if (dialog->resource == NULL) {
		free(dialog);
		wl_client_post_no_memory(client);
		return;
	}
	dialog->dialogs = dialogs;
	wl_resource_set_implementation(
			dialog->resource, &dialog_impl, dialog, dialog_resource_destroy);
	/* A toplevel already gone: an inert dialog, as the protocol has it. */
	if (toplevel == NULL) {
		return;
	}
	dialog->toplevel = toplevel;
	wlr_addon_init(&dialog->addon, &toplevel->base->surface->addons, dialogs,
			&addon_impl);
	fw_listener_connect(&dialog->toplevel_destroy, &toplevel->events.destroy,
			handle_toplevel_destroy);
}

static void manager_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct xdg_wm_dialog_v1_interface manager_impl = {
		.destroy = manager_handle_destroy,
		.get_xdg_dialog = manager_handle_get_xdg_dialog,
};

static void manager_bind(
		struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(
			client, &xdg_wm_dialog_v1_interface, version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

struct fw_dialogs *fw_dialog_create(struct fw_server *server) {
	struct fw_dialogs *dialogs = calloc(1, sizeof(*dialogs));
	if (dialogs == NULL) {
		return NULL;
	}
	dialogs->server = server;
	dialogs->global = wl_global_create(server->display,
			&xdg_wm_dialog_v1_interface, 1, dialogs, manager_bind);
	if (dialogs->global == NULL) {
		free(dialogs);
		return NULL;
	}
	return dialogs;
}

void fw_dialog_destroy(struct fw_dialogs *dialogs) {
	if (dialogs == NULL) {
		return;
	}
	/* Resources made through it keep their data: the dialogs go with the
	 * display, before which the views (and their toplevels) went. */
	wl_global_destroy(dialogs->global);
	free(dialogs);
}
