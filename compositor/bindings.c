#include "compositor/input.h"
#include "compositor/server.h"
#include "compositor/spawn.h"
#include "compositor/view.h"
#include <stdlib.h>
#include <wlr/types/wlr_keyboard.h>
#include <xkbcommon/xkbcommon.h>

static void launch_terminal(void) {
	const char *terminal = getenv("TERMINAL");
	if (terminal == NULL || terminal[0] == '\0') {
		terminal = "foot";
	}
	fw_spawn_shell(terminal);
}

bool fw_bindings_handle(
		struct fw_server *server, uint32_t modifiers, uint32_t keysym) {
	const uint32_t mods = modifiers &
			(WLR_MODIFIER_LOGO | WLR_MODIFIER_SHIFT | WLR_MODIFIER_ALT |
					WLR_MODIFIER_CTRL);
	if (mods == WLR_MODIFIER_ALT && keysym == XKB_KEY_Tab) {
		fw_view_cycle_focus(server);
		return true;
	}
	if (mods == WLR_MODIFIER_LOGO) {
		switch (keysym) {
		case XKB_KEY_Return:
			launch_terminal();
			return true;
		case XKB_KEY_q: {
			struct fw_view *view = fw_view_focused(server);
			if (view != NULL) {
				fw_view_close(view);
			}
			return true;
		}
		default:
			return false;
		}
	}
	if (mods == (WLR_MODIFIER_LOGO | WLR_MODIFIER_SHIFT) &&
			(keysym == XKB_KEY_E || keysym == XKB_KEY_e)) {
		fw_server_terminate(server, 0);
		return true;
	}
	return false;
}
