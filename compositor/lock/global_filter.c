#include "compositor/lock/global_filter.h"
#include "compositor/config/config.h"
#include "compositor/lock/lock.h"
#include "compositor/sched/client.h"
#include "compositor/sched/scheduler_protocol.h"
#include "compositor/server.h"
#include <string.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_security_context_v1.h>

/* What reads the screen or the clipboard: no one's while locked. */
static bool reads_the_session(
		const struct fw_server *server, const char *interface) {
	if (strcmp(interface, "zwlr_data_control_manager_v1") == 0) {
		return true;
	}
	return !server->config.screenshots_while_locked &&
			(strcmp(interface, "zwlr_screencopy_manager_v1") == 0 ||
					strcmp(interface, "zwlr_export_dmabuf_manager_v1") == 0);
}

static bool filter_global(const struct wl_client *const_client,
		const struct wl_global *global, void *data) {
	struct fw_server *server = data;
	struct wl_client *client = (struct wl_client *)const_client;
	const char *interface = wl_global_get_interface(global)->name;
	if (!fw_config_privileged_global(interface)) {
		return true;
	}
	if (strcmp(interface, "fairway_scheduler_manager_v1") == 0) {
		return fw_scheduler_protocol_may_manage(
				server->scheduler_protocol, client);
	}
	if (reads_the_session(server, interface) &&
			fw_lock_session_locked(server)) {
		return false;
	}
	struct fw_client *record = fw_client_get(client);
	if (!fw_client_sandboxed(record)) {
		return true;
	}
	/* Only a client outside any sandbox makes a sandbox's listener. */
	if (strcmp(interface, "wp_security_context_manager_v1") == 0) {
		return false;
	}
	const struct wlr_security_context_v1_state *context =
			fw_client_security_context(record);
	return fw_config_sandbox_allows(&server->config, interface,
			context != NULL ? context->sandbox_engine : NULL,
			context != NULL ? context->app_id : NULL);
}

void fw_global_filter_init(struct fw_server *server) {
	wl_display_set_global_filter(server->display, filter_global, server);
}

void fw_global_filter_finish(struct fw_server *server) {
	wl_display_set_global_filter(server->display, NULL, NULL);
}
