#include "compositor/config/config.h"
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>

void fw_config_init(struct fw_config *config) {
	*config = (struct fw_config){
			.backend = FW_BACKEND_AUTO,
			.outputs = 1,
			.output_width = 1280,
			.output_height = 720,
			.sched =
					{
							.enabled = true,
							.transport = GATE_TRANSPORT_AUTO,
					},
			.xwayland = true,
			.render_direct = true,
			.frame_schedule = true,
			.decorations_server = true,
			.paint_thread = true,
			/*
			 * auto: fairway competes with CPU-bound clients for the
			 * frames they show, and an animation kept its rate better
			 * beside them when it was raised; real time only while
			 * others than its clients contend the CPU, where nice
			 * cannot help, kept it in both session layouts without
			 * costing the idle tail or a flood of its own clients
			 * (bench/README.md).
			 */
			.raise_priority = true,
			.raise_realtime = true,
			.raise_auto = true,
			.log_level = WLR_ERROR,
			.input =
					{
							.repeat_rate = 25,
							.repeat_delay = 600,
							.accel_profile = -1,
							.tap = -1,
							.natural_scroll = -1,
					},
	};
	/* On: the kernel should see what the user sees. */
	hints_config_default(&config->hints);
}

void fw_config_finish(struct fw_config *config) {
	for (size_t i = 0; i < config->binding_count; i++) {
		free(config->bindings[i].command);
	}
	free(config->bindings);
	for (size_t i = 0; i < config->output_config_count; i++) {
		free(config->output_configs[i].name);
	}
	free(config->output_configs);
	struct fw_input_config *input = &config->input;
	free(input->xkb_rules);
	free(input->xkb_model);
	free(input->xkb_layout);
	free(input->xkb_variant);
	free(input->xkb_options);
	for (size_t i = 0; i < config->autostart_count; i++) {
		free(config->autostart[i]);
	}
	free(config->autostart);
	for (size_t i = 0; i < config->rule_count; i++) {
		free(config->rules[i].pattern);
	}
	free(config->rules);
	for (size_t i = 0; i < config->sched.manager_exe_count; i++) {
		free(config->sched.manager_exes[i]);
	}
	free(config->sched.manager_exes);
	for (size_t i = 0; i < config->sandbox_allow_count; i++) {
		free(config->sandbox_allow[i].engine);
		free(config->sandbox_allow[i].app_id);
		free(config->sandbox_allow[i].global);
	}
	free(config->sandbox_allow);
	for (size_t i = 0; i < config->error_count; i++) {
		free(config->errors[i]);
	}
	free(config->errors);
	/* Empty again: finishing it twice is harmless. */
	config->bindings = NULL;
	config->output_configs = NULL;
	config->autostart = NULL;
	config->rules = NULL;
	config->errors = NULL;
	config->binding_count = config->output_config_count = 0;
	config->autostart_count = config->rule_count = config->error_count = 0;
	input->xkb_rules = input->xkb_model = input->xkb_layout = NULL;
	input->xkb_variant = input->xkb_options = NULL;
	config->sched.manager_exes = NULL;
	config->sched.manager_exe_count = 0;
	config->sched.manager_exes_set = false;
	config->sandbox_allow = NULL;
	config->sandbox_allow_count = 0;
}

bool fw_config_take(
		enum fw_config_source *current, enum fw_config_source from) {
	if (from < *current) {
		return false;
	}
	*current = from;
	return true;
}

void fw_config_add_error(struct fw_config *config, const char *path, int number,
		const char *fmt, ...) {
	char message[512];
	va_list args;
	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	char *error = NULL;
	int len = number > 0 ? asprintf(&error, "%s:%d: %s", path, number, message)
						 : asprintf(&error, "%s: %s", path, message);
	if (len < 0) {
		return;
	}
	char **grown =
			realloc(config->errors, (config->error_count + 1) * sizeof(*grown));
	if (grown == NULL) {
		free(error);
		return;
	}
	config->errors = grown;
	config->errors[config->error_count++] = error;
}

void *fw_config_grow(void *array_ptr, size_t *count, size_t size) {
	void **array = array_ptr;
	char *grown = realloc(*array, (*count + 1) * size);
	if (grown == NULL) {
		return NULL;
	}
	*array = grown;
	memset(grown + *count * size, 0, size);
	return grown + (*count)++ * size;
}

struct fw_binding *fw_config_find_binding(
		struct fw_config *config, uint32_t modifiers, uint32_t keysym) {
	for (size_t i = 0; i < config->binding_count; i++) {
		struct fw_binding *binding = &config->bindings[i];
		if (binding->modifiers == modifiers && binding->keysym == keysym) {
			return binding;
		}
	}
	return NULL;
}

const struct fw_binding *fw_config_binding(
		const struct fw_config *config, uint32_t modifiers, uint32_t keysym) {
	return fw_config_find_binding(
			(struct fw_config *)config, modifiers, xkb_keysym_to_lower(keysym));
}

static const char *const action_names[] = {
		[FW_ACTION_EXEC] = "exec",
		[FW_ACTION_TERMINAL] = "terminal",
		[FW_ACTION_CLOSE] = "close",
		[FW_ACTION_CYCLE_FOCUS] = "cycle-focus",
		[FW_ACTION_MAXIMIZE] = "maximize",
		[FW_ACTION_FULLSCREEN] = "fullscreen",
		[FW_ACTION_RELOAD] = "reload",
		[FW_ACTION_EXIT] = "exit",
};

bool fw_config_action_from_name(const char *name, enum fw_action *action) {
	for (size_t i = 0; i < sizeof(action_names) / sizeof(*action_names); i++) {
		if (strcmp(name, action_names[i]) == 0) {
			*action = (enum fw_action)i;
			return true;
		}
	}
	return false;
}

bool fw_config_set_binding(struct fw_config *config, uint32_t modifiers,
		uint32_t keysym, enum fw_action action, const char *command) {
	char *copy = NULL;
	if (command != NULL && (copy = strdup(command)) == NULL) {
		return false;
	}
	struct fw_binding *binding =
			fw_config_find_binding(config, modifiers, keysym);
	if (binding == NULL) {
		binding = fw_config_grow(
				&config->bindings, &config->binding_count, sizeof(*binding));
		if (binding == NULL) {
			free(copy);
			return false;
		}
	}
	free(binding->command);
	*binding = (struct fw_binding){
			.modifiers = modifiers,
			.keysym = keysym,
			.action = action,
			.command = copy,
	};
	return true;
}

void fw_config_merge_output(
		struct fw_output_config *out, const struct fw_output_config *in) {
	if (in->has_mode) {
		out->has_mode = true;
		out->width = in->width;
		out->height = in->height;
		out->refresh_mhz = in->refresh_mhz;
	}
	if (in->has_position) {
		out->has_position = true;
		out->x = in->x;
		out->y = in->y;
	}
	if (in->scale > 0) {
		out->scale = in->scale;
	}
	if (in->transform >= 0) {
		out->transform = in->transform;
	}
	if (in->enabled >= 0) {
		out->enabled = in->enabled;
	}
}

bool fw_config_output(const struct fw_config *config, const char *name,
		struct fw_output_config *out) {
	*out = (struct fw_output_config){.transform = -1, .enabled = -1};
	bool found = false;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < config->output_config_count; i++) {
			const struct fw_output_config *entry = &config->output_configs[i];
			bool wild = strcmp(entry->name, "*") == 0;
			if ((pass == 0 && wild) ||
					(pass == 1 && !wild && strcmp(entry->name, name) == 0)) {
				fw_config_merge_output(out, entry);
				found = true;
			}
		}
	}
	return found;
}

struct xkb_keymap *fw_config_keymap(
		const struct fw_input_config *input, struct xkb_context *context) {
	struct xkb_rule_names names = {
			.rules = input->xkb_rules,
			.model = input->xkb_model,
			.layout = input->xkb_layout,
			.variant = input->xkb_variant,
			.options = input->xkb_options,
	};
	return xkb_keymap_new_from_names(
			context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
}

/* What sway 1.7 offers every client and a sandbox should not have. */
static const char *const privileged_globals[] = {
		"zwlr_screencopy_manager_v1",
		"zwlr_export_dmabuf_manager_v1",
		"zwlr_data_control_manager_v1",
		"zwp_virtual_keyboard_manager_v1",
		"zwlr_virtual_pointer_manager_v1",
		"zwp_input_method_manager_v2",
		"zwlr_foreign_toplevel_manager_v1",
		"zwlr_gamma_control_manager_v1",
		"zwlr_output_manager_v1",
		"zwlr_output_power_manager_v1",
		"ext_session_lock_manager_v1",
		"fairway_scheduler_manager_v1",
		/* Beyond sway 1.7: what sway 1.10 keeps from sandboxes too. */
		"wp_security_context_manager_v1",
		"ext_foreign_toplevel_list_v1",
};

bool fw_config_privileged_global(const char *interface) {
	for (size_t i = 0;
			i < sizeof(privileged_globals) / sizeof(*privileged_globals); i++) {
		if (strcmp(interface, privileged_globals[i]) == 0) {
			return true;
		}
	}
	return false;
}

/* A line's pattern: none matches anything; one matches only a name. */
static bool sandbox_matches(const char *pattern, const char *name) {
	return pattern == NULL || (name != NULL && fnmatch(pattern, name, 0) == 0);
}

bool fw_config_sandbox_allows(const struct fw_config *config,
		const char *interface, const char *engine, const char *app_id) {
	for (size_t i = 0; i < config->sandbox_allow_count; i++) {
		const struct fw_sandbox_allow *allow = &config->sandbox_allow[i];
		if (strcmp(interface, allow->global) == 0 &&
				sandbox_matches(allow->engine, engine) &&
				sandbox_matches(allow->app_id, app_id)) {
			return true;
		}
	}
	return false;
}
