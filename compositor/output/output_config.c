#include "compositor/output/output_config.h"
#include "compositor/config/config.h"
#include "compositor/output/output.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>

/*
 * The mode of that size closest to the rate asked for; with no rate, the
 * preferred one of that size, else the fastest. NULL if none has the size.
 */
static struct wlr_output_mode *find_mode(
		struct wlr_output *output, const struct fw_output_config *config) {
	struct wlr_output_mode *best = NULL, *mode;
	wl_list_for_each(mode, &output->modes, link) {
		if (mode->width != config->width || mode->height != config->height) {
			continue;
		}
		if (best == NULL) {
			best = mode;
		} else if (config->refresh_mhz > 0) {
			if (abs(mode->refresh - config->refresh_mhz) <
					abs(best->refresh - config->refresh_mhz)) {
				best = mode;
			}
		} else if (!best->preferred &&
				(mode->preferred || mode->refresh > best->refresh)) {
			best = mode;
		}
	}
	return best;
}

/* Sets in state what the file asks of the output. */
static void set_state(struct wlr_output *output,
		const struct fw_output_config *config, struct wlr_output_state *state) {
	if (config->enabled >= 0) {
		wlr_output_state_set_enabled(state, config->enabled);
	}
	if (config->enabled == 0) {
		/* A disabled output takes no mode. */
		return;
	}
	if (!output->enabled && !config->has_mode) {
		/* Enabled again, as it was or with the mode it likes best. */
		struct wlr_output_mode *mode = wlr_output_preferred_mode(output);
		if (mode != NULL) {
			wlr_output_state_set_mode(state, mode);
		}
	}
	if (config->has_mode) {
		struct wlr_output_mode *mode = find_mode(output, config);
		if (mode != NULL) {
			wlr_output_state_set_mode(state, mode);
		} else {
			/* Nested and headless outputs have no list: any size goes. */
			wlr_output_state_set_custom_mode(
					state, config->width, config->height, config->refresh_mhz);
		}
	}
	if (config->scale > 0) {
		wlr_output_state_set_scale(state, (float)config->scale);
	}
	if (config->transform >= 0) {
		wlr_output_state_set_transform(
				state, (enum wl_output_transform)config->transform);
	}
}

static void set_defaults(struct fw_server *server, struct wlr_output *output,
		struct wlr_output_state *state) {
	struct wlr_output_mode *mode = wlr_output_preferred_mode(output);
	if (mode != NULL) {
		wlr_output_state_set_mode(state, mode);
	} else {
		/* Nested and headless outputs have no modes: --output-size. */
		wlr_output_state_set_custom_mode(state, server->config.output_width,
				server->config.output_height, 0);
	}
	wlr_output_state_set_enabled(state, true);
}

/* Commits the output's preferred mode, enabled. */
static bool commit_defaults(
		struct fw_server *server, struct wlr_output *output) {
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	set_defaults(server, output, &state);
	bool ok = wlr_output_commit_state(output, &state);
	wlr_output_state_finish(&state);
	return ok;
}

bool fw_output_config_commit_first(
		struct fw_server *server, struct wlr_output *output) {
	struct fw_output_config config;
	bool configured = fw_config_output(&server->config, output->name, &config);
	if (!configured) {
		return commit_defaults(server, output);
	}
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	if (config.enabled == 0) {
		wlr_output_state_set_enabled(&state, false);
		bool off = !output->enabled || wlr_output_commit_state(output, &state);
		wlr_output_state_finish(&state);
		if (off) {
			return true;
		}
		wlr_log(WLR_ERROR, "Output %s cannot be disabled: its backend refuses",
				output->name);
		config.enabled = -1;
		wlr_output_state_init(&state);
	}
	set_defaults(server, output, &state);
	set_state(output, &config, &state);
	bool ok = wlr_output_test_state(output, &state) &&
			wlr_output_commit_state(output, &state);
	wlr_output_state_finish(&state);
	if (ok) {
		return true;
	}
	wlr_log(WLR_ERROR,
			"Output %s refused its configured settings: using its "
			"preferred mode",
			output->name);
	return commit_defaults(server, output);
}

bool fw_output_config_place(struct fw_output *output) {
	struct fw_server *server = output->server;
	struct wlr_output *wlr_output = output->wlr_output;
	if (!wlr_output->enabled) {
		fw_output_layout_remove(output);
		return true;
	}
	struct fw_output_config config;
	if (fw_config_output(&server->config, wlr_output->name, &config) &&
			config.has_position) {
		return fw_output_layout_add(output, false, config.x, config.y);
	}
	if (wlr_output_layout_get(server->output_layout, wlr_output) == NULL) {
		return fw_output_layout_add(output, true, 0, 0);
	}
	return true;
}

void fw_output_config_apply(struct fw_output *output) {
	struct fw_server *server = output->server;
	struct wlr_output *wlr_output = output->wlr_output;
	struct fw_output_config config;
	/* An output the file does not name keeps what it has. */
	if (!fw_config_output(&server->config, wlr_output->name, &config)) {
		return;
	}
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	set_state(wlr_output, &config, &state);
	bool ok = wlr_output_test_state(wlr_output, &state) &&
			wlr_output_commit_state(wlr_output, &state);
	wlr_output_state_finish(&state);
	if (!ok) {
		wlr_log(WLR_ERROR, "Output %s refused its configured settings",
				wlr_output->name);
		return;
	}
	if (!fw_output_config_place(output)) {
		wlr_log(WLR_ERROR, "Cannot place output %s in the layout",
				wlr_output->name);
	}
	if (wlr_output->enabled) {
		wlr_xcursor_manager_load(server->cursor_manager, wlr_output->scale);
	}
	fw_output_update_manager(server);
	wlr_log(WLR_INFO, "Output %s: %s %dx%d, scale %.2f, transform %d",
			wlr_output->name, wlr_output->enabled ? "on" : "off",
			wlr_output->width, wlr_output->height, wlr_output->scale,
			(int)wlr_output->transform);
}
