#ifndef FAIRWAY_COMPOSITOR_CONFIG_CONFIG_H
#define FAIRWAY_COMPOSITOR_CONFIG_CONFIG_H

#include "compositor/sched/app_rules.h"
#include "compositor/sched/sched.h"
#include "scheduler/hints/hints.h"
#include "scheduler/ratings/ratings_client.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wlr/util/log.h>

enum fw_backend_kind {
	FW_BACKEND_AUTO,
	FW_BACKEND_DRM,
	FW_BACKEND_WAYLAND,
	FW_BACKEND_X11,
	FW_BACKEND_HEADLESS,
};

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

/*
 * Where a setting came from. A setting that both the command line and the
 * configuration file give has its source: the file's never replaces a
 * flag's, so that the flags win whatever order they are read in.
 */
enum fw_config_source {
	FW_CONFIG_DEFAULT,
	FW_CONFIG_FILE,
	FW_CONFIG_FLAG,
};

/*
 * Every setting of fairway, the command line's (command_line.c) and the
 * configuration file's (config_file.c), in one place: a new setting is a
 * field here, read by the one or the other or both. A configuration only
 * the command line filled in owns no memory and may be copied; the file's
 * parts are allocated, and fw_config_finish frees them.
 */
/*
 * One global of a "sandbox allow" line, for the sandboxed clients whose
 * security context the line's engine= and app_id= patterns match (NULL:
 * any, and the clients known sandboxed by /.flatpak-info alone).
 */
struct fw_sandbox_allow {
	char *engine;
	char *app_id;
	char *global;
};

struct fw_config {
	/* The command line's. */
	enum fw_backend_kind backend;
	int outputs; /* headless outputs */
	int output_width, output_height;
	/* The socket and the gate; interval_ms and max_slice_ms also the
	 * file's scheduler lines'. */
	struct fw_sched_config sched;
	bool xwayland;
	/* --screenshots-while-locked: lock/capture.h lets screencopy and
	 * export-dmabuf capture the lock screen. */
	bool screenshots_while_locked;
	bool render_direct; /* --render: render.c's pass, else wlr_scene's */
	bool frame_schedule; /* --frame-schedule auto (frame_schedule.c) */
	bool paint_thread; /* --paint-thread (output/paint_worker.h) */
	bool demo;
	/*
	 * Inside another program that drives it (the wlcs conformance
	 * module): fairway leaves that program's environment alone, prints
	 * no ready line and starts no demo, autostart or COMMAND.
	 */
	bool embedded;
	/* --hints, --hint-map; the targets also the file's hint-map lines. */
	struct hints_config hints;
	bool restore_hints; /* --restore-hints: replay the journal, exit */
	bool raise_priority; /* --raise-priority (self_priority.h) */
	bool raise_realtime; /* --raise-priority rr or auto */
	bool raise_auto; /* --raise-priority auto: rr while the CPU is contended */
	enum wlr_log_importance log_level;
	char **command; /* NULL-terminated argv, NULL without COMMAND */
	const char *config_path; /* --config, else NULL: the usual places */
	bool check_config; /* --check-config: check the file and exit */
	const char *check_config_path; /* its FILE, else NULL */

	/* The file's. */
	struct fw_binding *bindings;
	size_t binding_count;
	struct fw_output_config *output_configs;
	size_t output_config_count;
	struct fw_input_config input;
	char **autostart; /* shell command lines */
	size_t autostart_count;
	struct fw_rule *rules; /* in file order: a later match wins */
	size_t rule_count;
	/* Server-side decorations for windows that state no preference. */
	bool decorations_server;
	/* sandbox allow: privileged globals shown to sandboxed clients too. */
	struct fw_sandbox_allow *sandbox_allow;
	size_t sandbox_allow_count;

	/* Where the settings that both give came from. */
	struct {
		enum fw_config_source sched_interval, sched_max_slice;
		enum fw_config_source hint_map[RATINGS_CLASS_COUNT];
	} source;

	/* "FILE:LINE: message", every error the file had, in order. */
	char **errors;
	size_t error_count;
};

/* The built-in settings, before any flag or file; allocates nothing. */
void fw_config_init(struct fw_config *config);
/* Frees what the file's settings allocated; the config is empty after. */
void fw_config_finish(struct fw_config *config);

/*
 * Whether a setting from source may replace the one that came from
 * *current; if so, *current becomes source.
 */
bool fw_config_take(enum fw_config_source *current, enum fw_config_source from);

/* Records "PATH:LINE: message", or "PATH: message" for line 0. */
__attribute__((format(printf, 4, 5))) void fw_config_add_error(
		struct fw_config *config, const char *path, int line, const char *fmt,
		...);
/* Grows *array by one zeroed element of size; NULL when out of memory. */
void *fw_config_grow(void *array, size_t *count, size_t size);

/*
 * Whether interface names a privileged global: one that reads the screen
 * or the clipboard, makes input, or manages outputs, other clients or the
 * session. A sandboxed client is shown none of them unless the file's
 * "sandbox allow" names it (lock/global_filter.c).
 */
bool fw_config_privileged_global(const char *interface);
/*
 * Whether the file's "sandbox allow" shows interface to a sandboxed client
 * of this sandbox engine and app id (its security context's; NULL where it
 * has none, or gave none).
 */
bool fw_config_sandbox_allows(const struct fw_config *config,
		const char *interface, const char *engine, const char *app_id);

/* The binding for these modifiers and this keysym (any case), or NULL. */
const struct fw_binding *fw_config_binding(
		const struct fw_config *config, uint32_t modifiers, uint32_t keysym);
/* The same for a lower-case keysym, to change it. */
struct fw_binding *fw_config_find_binding(
		struct fw_config *config, uint32_t modifiers, uint32_t keysym);
/* Adds or replaces the binding of these keys; false when out of memory. */
bool fw_config_set_binding(struct fw_config *config, uint32_t modifiers,
		uint32_t keysym, enum fw_action action, const char *command);
bool fw_config_action_from_name(const char *name, enum fw_action *action);

/* The entries for an output, "*" first then its own, merged; false if none. */
bool fw_config_output(const struct fw_config *config, const char *name,
		struct fw_output_config *out);
/* Sets in out what in sets. */
void fw_config_merge_output(
		struct fw_output_config *out, const struct fw_output_config *in);

/*
 * Compiles the keymap input names in context; NULL names are xkbcommon's
 * defaults. NULL if it does not compile.
 */
struct xkb_context;
struct xkb_keymap *fw_config_keymap(
		const struct fw_input_config *input, struct xkb_context *context);

#endif
