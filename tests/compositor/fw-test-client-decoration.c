/*
 * fw-test-client's side of decoration negotiation: it asks for a mode
 * through xdg-decoration or KDE's server-decoration protocol, or uses
 * neither, and reports the compositor's answers as lines on stdout
 * ("decoration-configure server", "kde-mode client").
 */
#include "fw-test-client.h"
#include "server-decoration-client-protocol.h"
#include "xdg-decoration-unstable-v1-client-protocol.h"
#include <stdio.h>
#include <string.h>

bool fw_test_client_parse_decoration(
		struct test_client *client, const char *mode) {
	static const char *const modes[] = {
			[FW_DECORATION_SERVER] = "server",
			[FW_DECORATION_CLIENT] = "client",
			[FW_DECORATION_UNSET] = "unset",
			[FW_DECORATION_NONE] = "none",
			[FW_DECORATION_KDE_SERVER] = "kde-server",
			[FW_DECORATION_KDE_CLIENT] = "kde-client",
	};
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(mode, modes[i]) == 0) {
			client->decoration = (enum fw_decoration_mode)i;
			return true;
		}
	}
	return false;
}

static void handle_configure(void *data,
		struct zxdg_toplevel_decoration_v1 *decoration, uint32_t mode) {
	printf("decoration-configure %s\n",
			mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE ? "server"
																 : "client");
}

static const struct zxdg_toplevel_decoration_v1_listener decoration_listener = {
		.configure = handle_configure,
};

static void handle_kde_mode(void *data,
		struct org_kde_kwin_server_decoration *decoration, uint32_t mode) {
	printf("kde-mode %s\n",
			mode == 2           ? "server"
					: mode == 1 ? "client"
								: "none");
}

static const struct org_kde_kwin_server_decoration_listener kde_listener = {
		.mode = handle_kde_mode,
};

static void handle_default_mode(void *data,
		struct org_kde_kwin_server_decoration_manager *manager, uint32_t mode) {
}

static const struct org_kde_kwin_server_decoration_manager_listener
		kde_manager_listener = {
				.default_mode = handle_default_mode,
};

bool fw_test_client_bind_decoration(struct test_client *client,
		struct wl_registry *registry, uint32_t name, const char *interface) {
	if (strcmp(interface, zxdg_decoration_manager_v1_interface.name) == 0) {
		client->decoration_manager = wl_registry_bind(
				registry, name, &zxdg_decoration_manager_v1_interface, 1);
		return true;
	}
	if (strcmp(interface,
				org_kde_kwin_server_decoration_manager_interface.name) == 0) {
		client->kde_manager = wl_registry_bind(registry, name,
				&org_kde_kwin_server_decoration_manager_interface, 1);
		org_kde_kwin_server_decoration_manager_add_listener(
				client->kde_manager, &kde_manager_listener, client);
		return true;
	}
	return false;
}

bool fw_test_client_decorate(struct test_client *client) {
	switch (client->decoration) {
	case FW_DECORATION_NONE:
		return true;
	case FW_DECORATION_KDE_SERVER:
	case FW_DECORATION_KDE_CLIENT:
		if (client->kde_manager == NULL) {
			fprintf(stderr,
					"fw-test-client: no KDE server decoration manager\n");
			return false;
		}
		client->kde_decoration = org_kde_kwin_server_decoration_manager_create(
				client->kde_manager, client->surface);
		org_kde_kwin_server_decoration_add_listener(
				client->kde_decoration, &kde_listener, client);
		org_kde_kwin_server_decoration_request_mode(client->kde_decoration,
				client->decoration == FW_DECORATION_KDE_SERVER ? 2 : 1);
		return true;
	case FW_DECORATION_SERVER:
	case FW_DECORATION_CLIENT:
	case FW_DECORATION_UNSET:
		break;
	}
	if (client->decoration_manager == NULL) {
		fprintf(stderr, "fw-test-client: no zxdg_decoration_manager_v1\n");
		return false;
	}
	client->toplevel_decoration =
			zxdg_decoration_manager_v1_get_toplevel_decoration(
					client->decoration_manager, client->toplevel);
	zxdg_toplevel_decoration_v1_add_listener(
			client->toplevel_decoration, &decoration_listener, client);
	if (client->decoration == FW_DECORATION_UNSET) {
		zxdg_toplevel_decoration_v1_unset_mode(client->toplevel_decoration);
	} else {
		zxdg_toplevel_decoration_v1_set_mode(client->toplevel_decoration,
				client->decoration == FW_DECORATION_SERVER
						? ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE
						: ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE);
	}
	return true;
}

void fw_test_client_undecorate(struct test_client *client) {
	if (client->toplevel_decoration != NULL) {
		zxdg_toplevel_decoration_v1_destroy(client->toplevel_decoration);
	}
	if (client->decoration_manager != NULL) {
		zxdg_decoration_manager_v1_destroy(client->decoration_manager);
	}
	if (client->kde_decoration != NULL) {
		org_kde_kwin_server_decoration_release(client->kde_decoration);
	}
	if (client->kde_manager != NULL) {
		org_kde_kwin_server_decoration_manager_destroy(client->kde_manager);
	}
}
