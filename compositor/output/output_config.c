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

/* Sets what the file asks of the output's state, to be committed. */
static void set_state(
		struct wlr_output *output, const struct fw_output_config *config) {
	if (config->enabled >= 0) {
		wlr_output_enable(output, config->enabled);
	}
	if (config->enabled == 0) {
		/* A disabled output takes no mode. */
		return;
	}
	if (!output->enabled && !config->has_mode) {
		/* Enabled again, as it was or with the mode it likes best. */
		struct wlr_output_mode *mode = wlr_output_preferred_mode(output);
		if (mode != NULL) {
			wlr_output_set_mode(output, mode);
		}
	}
	if (config->has_mode) {
		struct wlr_output_mode *mode = find_mode(output, config);
		if (mode != NULL) {
			wlr_output_set_mode(output, mode);
		} else {
			/* Nested and headless outputs have no list: any size goes. */
			wlr_output_set_custom_mode(
					output, config->width, config->height, config->refresh_mhz);
		}
	}
	if (config->scale > 0) {
		wlr_output_set_scale(output, (float)config->scale);
	}
	if (config->transform >= 0) {
		wlr_output_set_transform(
				output, (enum wl_output_transform)config->transform);
	}
}

static void set_defaults(struct fw_server *server, struct wlr_output *output) {
	struct wlr_output_mode *mode = wlr_output_preferred_mode(output);
	if (mode != NULL) {
		wlr_output_set_mode(output, mode);
	} else {
		/* Nested and headless outputs have no modes: --output-size. */
		wlr_output_set_custom_mode(output, server->config.output_width,
				server->config.output_height, 0);
	}
	wlr_output_enable(output, true);
}

bool fw_output_config_commit_first(
		struct fw_server *server, struct wlr_output *output) {
	struct fw_output_config config;
	bool configured = fw_config_output(&server->config, output->name, &config);
	if (configured && config.enabled == 0) {
		wlr_output_enable(output, false);
		if (!output->enabled || wlr_output_commit(output)) {
			return true;
		}
		/* wlroots 0.15 turns off DRM outputs only. */
		wlr_log(WLR_ERROR, "Output %s cannot be disabled: its backend refuses",
				output->name);
		config.enabled = -1;
	}
	set_defaults(server, output);
	if (!configured) {
		return wlr_output_commit(output);
	}
	set_state(output, &config);
	if (wlr_output_test(output) && wlr_output_commit(output)) {
		return true;
	}
	wlr_log(WLR_ERROR,
			"Output %s refused its configured settings: using its "
			"preferred mode",
			output->name);
	wlr_output_rollback(output);
	set_defaults(server, output);
	return wlr_output_commit(output);
}

void fw_output_config_place(struct fw_output *output) {
	struct fw_server *server = output->server;
	struct wlr_output *wlr_output = output->wlr_output;
	if (!wlr_output->enabled) {
		wlr_output_layout_remove(server->output_layout, wlr_output);
		return;
	}
	struct fw_output_config config;
	if (fw_config_output(&server->config, wlr_output->name, &config) &&
			config.has_position) {
		wlr_output_layout_add(
				server->output_layout, wlr_output, config.x, config.y);
	} else if (wlr_output_layout_get(server->output_layout, wlr_output) ==
			NULL) {
		wlr_output_layout_add_auto(server->output_layout, wlr_output);
	}
}

void fw_output_config_apply(struct fw_output *output) {
	struct fw_server *server = output->server;
	struct wlr_output *wlr_output = output->wlr_output;
	struct fw_output_config config;
	/* An output the file does not name keeps what it has. */
	if (!fw_config_output(&server->config, wlr_output->name, &config)) {
		return;
	}
	set_state(wlr_output, &config);
	if (!wlr_output_test(wlr_output) || !wlr_output_commit(wlr_output)) {
		wlr_log(WLR_ERROR, "Output %s refused its configured settings",
				wlr_output->name);
		wlr_output_rollback(wlr_output);
		return;
	}
	fw_output_config_place(output);
	if (wlr_output->enabled) {
		wlr_xcursor_manager_load(server->cursor_manager, wlr_output->scale);
	}
	fw_output_update_manager(server);
	wlr_log(WLR_INFO, "Output %s: %s %dx%d, scale %.2f, transform %d",
			wlr_output->name, wlr_output->enabled ? "on" : "off",
			wlr_output->width, wlr_output->height, wlr_output->scale,
			(int)wlr_output->transform);
}
