#include "compositor/input/bindings.h"
#include "compositor/config/config.h"
#include "compositor/config/config_apply.h"
#include "compositor/server.h"
#include "compositor/shell/activation.h"
#include "compositor/shell/view.h"
#include "compositor/spawn.h"
#include <stdlib.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

_Static_assert((int)FW_MOD_SHIFT == (int)WLR_MODIFIER_SHIFT &&
				(int)FW_MOD_CTRL == (int)WLR_MODIFIER_CTRL &&
				(int)FW_MOD_ALT == (int)WLR_MODIFIER_ALT &&
				(int)FW_MOD_LOGO == (int)WLR_MODIFIER_LOGO,
		"config.h's modifiers are wlroots' bits");

static void launch_terminal(struct fw_server *server) {
	const char *terminal = getenv("TERMINAL");
	if (terminal == NULL || terminal[0] == '\0') {
		terminal = "foot";
	}
	fw_spawn_shell(terminal, fw_activation_issue(server->activation));
}

static void run_action(
		struct fw_server *server, enum fw_action action, const char *command) {
	struct fw_view *view = fw_view_focused(server);
	switch (action) {
	case FW_ACTION_EXEC:
		wlr_log(WLR_DEBUG, "Binding runs: %s", command);
		fw_spawn_shell(command, fw_activation_issue(server->activation));
		break;
	case FW_ACTION_TERMINAL:
		launch_terminal(server);
		break;
	case FW_ACTION_CLOSE:
		if (view != NULL) {
			fw_view_close(view);
		}
		break;
	case FW_ACTION_CYCLE_FOCUS:
		fw_view_cycle_focus(server);
		break;
	case FW_ACTION_MAXIMIZE:
		if (view != NULL) {
			fw_view_maximize(view, !view->maximized);
		}
		break;
	case FW_ACTION_FULLSCREEN:
		if (view != NULL) {
			fw_view_fullscreen(view, !view->fullscreen);
		}
		break;
	case FW_ACTION_RELOAD:
		fw_config_apply_reload(server);
		break;
	case FW_ACTION_EXIT:
		fw_server_terminate(server, 0);
		break;
	}
}

bool fw_bindings_handle(
		struct fw_server *server, uint32_t modifiers, uint32_t keysym) {
	const uint32_t mods = modifiers &
			(WLR_MODIFIER_LOGO | WLR_MODIFIER_SHIFT | WLR_MODIFIER_ALT |
					WLR_MODIFIER_CTRL);
	const struct fw_binding *binding =
			fw_config_binding(&server->config, mods, keysym);
	if (binding == NULL) {
		return false;
	}
	run_action(server, binding->action, binding->command);
	return true;
}
