#ifndef FAIRWAY_COMPOSITOR_CONFIG_CONFIG_FILE_H
#define FAIRWAY_COMPOSITOR_CONFIG_CONFIG_FILE_H

#include "compositor/sched/app_rules.h"
#include "scheduler/hints.h"
#include "scheduler/ratings.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The configuration file, fairway(5): one directive a line. Parsing is
 * pure (xkbcommon and the scheduler's hint parser, no wlroots), so that
 * --check-config, a reload and the unit test see the same thing; applying
 * it to a running server is config_apply.c's business.
 */

/* The same bits as wlroots' enum wlr_keyboard_modifier. */
enum fw_modifier {
	FW_MOD_SHIFT = 1 << 0,
	FW_MOD_CTRL = 1 << 2,
	FW_MOD_ALT = 1 << 3,
	FW_MOD_LOGO = 1 << 6,
};

enum fw_action {
	FW_ACTION_EXEC, /* run command through /bin/sh -c */
	FW_ACTION_TERMINAL, /* $TERMINAL, else foot */
	FW_ACTION_CLOSE,
	FW_ACTION_CYCLE_FOCUS,
	FW_ACTION_MAXIMIZE, /* toggles */
	FW_ACTION_FULLSCREEN, /* toggles */
	FW_ACTION_RELOAD,
	FW_ACTION_EXIT,
};

struct fw_binding {
	uint32_t modifiers; /* enum fw_modifier bits */
	uint32_t keysym; /* lower case: Shift is matched as a modifier */
	enum fw_action action;
	char *command; /* FW_ACTION_EXEC only */
};

/* Unset fields (has_* false, -1) leave what the output has. */
struct fw_output_config {
	char *name; /* a connector name (HDMI-A-1, HEADLESS-1) or "*" */
	bool has_mode;
	int width, height;
	int refresh_mhz; /* 0: the output's preferred rate for that size */
	bool has_position;
	int x, y;
	double scale; /* 0: unset */
	int transform; /* enum wl_output_transform, -1: unset */
	int enabled; /* -1: unset, 0, 1 */
};

struct fw_input_config {
	/* NULL: xkbcommon's default (XKB_DEFAULT_* from the environment). */
	char *xkb_rules, *xkb_model, *xkb_layout, *xkb_variant, *xkb_options;
	int repeat_rate, repeat_delay; /* keys a second, ms */
	/* libinput pointers and touchpads; unset: libinput's defaults. */
	bool has_accel;
	double accel; /* libinput's speed, -1 to 1 */
	int accel_profile; /* -1: unset, 0: flat, 1: adaptive */
	int tap; /* tap to click: -1 unset, 0 off, 1 on */
	int natural_scroll; /* -1 unset, 0 off, 1 on */
};

struct fw_file_config {
	struct fw_binding *bindings;
	size_t binding_count;
	struct fw_output_config *outputs;
	size_t output_count;
	struct fw_input_config input;
	char **autostart; /* shell command lines */
	size_t autostart_count;
	double sched_interval_ms, sched_max_slice_ms; /* 0: unset */
	/* scheduler hint-map lines, class by class */
	bool hint_map_set[RATINGS_CLASS_COUNT];
	struct hints_target hint_map[RATINGS_CLASS_COUNT];
	struct fw_rule *rules; /* in file order: a later match wins */
	size_t rule_count;

	/* "FILE:LINE: message", every error found, in order. */
	char **errors;
	size_t error_count;
};

/* The built-in configuration: today's bindings, nothing else set. */
struct fw_file_config *fw_file_config_create(void);
void fw_file_config_destroy(struct fw_file_config *config);

/*
 * Parses text as the file at path (named in the errors) on top of config.
 * Every error is recorded; false if there was any.
 */
bool fw_file_config_parse(
		struct fw_file_config *config, const char *path, const char *text);
/* Reads and parses the file; a file that cannot be read is an error too. */
bool fw_file_config_load(struct fw_file_config *config, const char *path);

/* The binding for these modifiers and this keysym (any case), or NULL. */
const struct fw_binding *fw_file_config_binding(
		const struct fw_file_config *config, uint32_t modifiers,
		uint32_t keysym);
/* The entries for an output, "*" first then its own, merged; false if none. */
bool fw_file_config_output(const struct fw_file_config *config,
		const char *name, struct fw_output_config *out);

bool fw_action_from_name(const char *name, enum fw_action *action);
/*
 * Compiles the keymap input names in context; NULL names are xkbcommon's
 * defaults. NULL if it does not compile.
 */
struct xkb_context;
struct xkb_keymap *fw_input_config_keymap(
		const struct fw_input_config *input, struct xkb_context *context);

#endif
