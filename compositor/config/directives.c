#include "compositor/config/config_file.h"
#include "compositor/config/parser.h"
#include "scheduler/parse_number.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wayland-server-protocol.h>
#include <xkbcommon/xkbcommon.h>

__attribute__((format(printf, 3, 4))) static void line_error(
		struct fw_config *config, const struct line *line, const char *fmt,
		...) {
	char message[512];
	va_list args;
	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	fw_config_add_error(config, line->path, line->number, "%s", message);
}

static bool parse_on_off(const char *text, int *out) {
	if (strcmp(text, "on") == 0 || strcmp(text, "yes") == 0 ||
			strcmp(text, "true") == 0) {
		*out = 1;
	} else if (strcmp(text, "off") == 0 || strcmp(text, "no") == 0 ||
			strcmp(text, "false") == 0) {
		*out = 0;
	} else {
		return false;
	}
	return true;
}

static const struct {
	const char *name;
	uint32_t bit;
} modifier_names[] = {
		{"Super", FW_MOD_LOGO},
		{"Logo", FW_MOD_LOGO},
		{"Mod4", FW_MOD_LOGO},
		{"Alt", FW_MOD_ALT},
		{"Mod1", FW_MOD_ALT},
		{"Ctrl", FW_MOD_CTRL},
		{"Control", FW_MOD_CTRL},
		{"Shift", FW_MOD_SHIFT},
};

/* "Super+Shift+E": modifiers by name (any case), then one key. */
static bool parse_combo(struct fw_config *config, const struct line *line,
		const char *text, uint32_t *modifiers, uint32_t *keysym) {
	*modifiers = 0;
	const char *part = text;
	const char *plus;
	while ((plus = strchr(part, '+')) != NULL && plus[1] != '\0') {
		size_t len = (size_t)(plus - part);
		bool known = false;
		for (size_t i = 0; i < sizeof(modifier_names) / sizeof(*modifier_names);
				i++) {
			if (strlen(modifier_names[i].name) == len &&
					strncasecmp(part, modifier_names[i].name, len) == 0) {
				*modifiers |= modifier_names[i].bit;
				known = true;
			}
		}
		if (!known) {
			line_error(config, line,
					"unknown modifier '%.*s' in '%s' (Super, Alt, Ctrl, "
					"Shift)",
					(int)len, part, text);
			return false;
		}
		part = plus + 1;
	}
	xkb_keysym_t sym = xkb_keysym_from_name(part, XKB_KEYSYM_NO_FLAGS);
	if (sym == XKB_KEY_NoSymbol) {
		sym = xkb_keysym_from_name(part, XKB_KEYSYM_CASE_INSENSITIVE);
	}
	if (sym == XKB_KEY_NoSymbol) {
		line_error(config, line,
				"unknown key '%s' in '%s' (an xkb keysym name)", part, text);
		return false;
	}
	*keysym = xkb_keysym_to_lower(sym);
	return true;
}

static const char *rest_of_line(const struct line *line, size_t i) {
	return line->text + line->starts[i];
}

static void parse_bind(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	if (line->count < 3) {
		line_error(config, line,
				"usage: bind KEYS ACTION, or bind KEYS exec "
				"COMMAND");
		return;
	}
	uint32_t modifiers, keysym;
	if (!parse_combo(config, line, line->words[1], &modifiers, &keysym)) {
		return;
	}
	const char *name = line->words[2];
	enum fw_action action;
	if (!fw_config_action_from_name(name, &action)) {
		line_error(config, line,
				"unknown action '%s' (exec, terminal, close, cycle-focus, "
				"maximize, fullscreen, reload, exit)",
				name);
		return;
	}
	if (action == FW_ACTION_EXEC && line->count < 4) {
		line_error(config, line, "exec needs a command");
		return;
	}
	if (action != FW_ACTION_EXEC && line->count > 3) {
		line_error(config, line, "'%s' takes no arguments, found '%s'", name,
				line->words[3]);
		return;
	}
	if (!fw_config_set_binding(config, modifiers, keysym, action,
				action == FW_ACTION_EXEC ? rest_of_line(line, 3) : NULL)) {
		line_error(config, line, "out of memory");
	}
}

static void parse_unbind(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	if (line->count != 2) {
		line_error(config, line, "usage: unbind KEYS");
		return;
	}
	uint32_t modifiers, keysym;
	if (!parse_combo(config, line, line->words[1], &modifiers, &keysym)) {
		return;
	}
	struct fw_binding *binding =
			fw_config_find_binding(config, modifiers, keysym);
	if (binding == NULL) {
		line_error(config, line, "nothing is bound to %s", line->words[1]);
		return;
	}
	free(binding->command);
	*binding = config->bindings[--config->binding_count];
}

static bool parse_mode(const char *text, struct fw_output_config *output) {
	char *end;
	errno = 0;
	long width = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != 'x' || width < 1 ||
			width > 16384) {
		return false;
	}
	const char *rest = end + 1;
	long height = strtol(rest, &end, 10);
	if (errno != 0 || end == rest || height < 1 || height > 16384) {
		return false;
	}
	double hz = 0;
	if (*end == '@') {
		const char *rate = end + 1;
		size_t len = strlen(rate);
		char buf[32];
		/* "60" and "60Hz" alike */
		if (len > 2 && strcasecmp(rate + len - 2, "hz") == 0) {
			len -= 2;
		}
		if (len == 0 || len >= sizeof(buf)) {
			return false;
		}
		memcpy(buf, rate, len);
		buf[len] = '\0';
		if (!sched_parse_double(buf, 1, 1000, &hz)) {
			return false;
		}
	} else if (*end != '\0') {
		return false;
	}
	output->has_mode = true;
	output->width = (int)width;
	output->height = (int)height;
	output->refresh_mhz = (int)lround(hz * 1000);
	return true;
}

static bool parse_position(const char *text, struct fw_output_config *output) {
	const char *comma = strchr(text, ',');
	if (comma == NULL) {
		return false;
	}
	char buf[32];
	size_t len = (size_t)(comma - text);
	if (len == 0 || len >= sizeof(buf)) {
		return false;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (!sched_parse_int(buf, -65536, 65536, &output->x) ||
			!sched_parse_int(comma + 1, -65536, 65536, &output->y)) {
		return false;
	}
	output->has_position = true;
	return true;
}

static const char *const transform_names[] = {
		[WL_OUTPUT_TRANSFORM_NORMAL] = "normal",
		[WL_OUTPUT_TRANSFORM_90] = "90",
		[WL_OUTPUT_TRANSFORM_180] = "180",
		[WL_OUTPUT_TRANSFORM_270] = "270",
		[WL_OUTPUT_TRANSFORM_FLIPPED] = "flipped",
		[WL_OUTPUT_TRANSFORM_FLIPPED_90] = "flipped-90",
		[WL_OUTPUT_TRANSFORM_FLIPPED_180] = "flipped-180",
		[WL_OUTPUT_TRANSFORM_FLIPPED_270] = "flipped-270",
};

static struct fw_output_config *output_entry(
		struct fw_config *config, const char *name) {
	for (size_t i = 0; i < config->output_config_count; i++) {
		if (strcmp(config->output_configs[i].name, name) == 0) {
			return &config->output_configs[i];
		}
	}
	char *copy = strdup(name);
	if (copy == NULL) {
		return NULL;
	}
	struct fw_output_config *output = fw_config_grow(&config->output_configs,
			&config->output_config_count, sizeof(*output));
	if (output == NULL) {
		free(copy);
		return NULL;
	}
	output->name = copy;
	output->transform = -1;
	output->enabled = -1;
	return output;
}

/* One "KEY VALUE" (or "enable"/"disable") of an output line at word i. */
static size_t parse_output_setting(struct fw_config *config,
		const struct line *line, size_t i, struct fw_output_config *output) {
	const char *key = line->words[i];
	if (strcmp(key, "enable") == 0 || strcmp(key, "disable") == 0) {
		output->enabled = key[0] == 'e';
		return 1;
	}
	if (i + 1 >= line->count) {
		line_error(config, line, "'%s' needs a value", key);
		return 0;
	}
	const char *value = line->words[i + 1];
	if (strcmp(key, "mode") == 0) {
		if (!parse_mode(value, output)) {
			line_error(
					config, line, "bad mode '%s' (WIDTHxHEIGHT[@HZ])", value);
			return 0;
		}
	} else if (strcmp(key, "position") == 0) {
		if (!parse_position(value, output)) {
			line_error(config, line, "bad position '%s' (X,Y)", value);
			return 0;
		}
	} else if (strcmp(key, "scale") == 0) {
		if (!sched_parse_double(value, 0.25, 10, &output->scale)) {
			line_error(config, line, "bad scale '%s' (0.25 to 10)", value);
			return 0;
		}
	} else if (strcmp(key, "transform") == 0) {
		output->transform = -1;
		for (size_t t = 0;
				t < sizeof(transform_names) / sizeof(*transform_names); t++) {
			if (strcmp(value, transform_names[t]) == 0) {
				output->transform = (int)t;
			}
		}
		if (output->transform < 0) {
			line_error(config, line,
					"bad transform '%s' (normal, 90, 180, 270, flipped, "
					"flipped-90, flipped-180, flipped-270)",
					value);
			return 0;
		}
	} else {
		line_error(config, line,
				"unknown output setting '%s' (mode, position, scale, "
				"transform, enable, disable)",
				key);
		return 0;
	}
	return 2;
}

static void parse_output(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	if (line->count < 3) {
		line_error(config, line, "usage: output NAME SETTING...");
		return;
	}
	/* Checked on a copy: a line with an error changes nothing. */
	struct fw_output_config parsed = {.transform = -1, .enabled = -1};
	for (size_t i = 2; i < line->count;) {
		size_t used = parse_output_setting(config, line, i, &parsed);
		if (used == 0) {
			return;
		}
		i += used;
	}
	struct fw_output_config *output = output_entry(config, line->words[1]);
	if (output == NULL) {
		line_error(config, line, "out of memory");
		return;
	}
	fw_config_merge_output(output, &parsed);
}

static bool set_string(char **field, const char *value) {
	char *copy = strdup(value);
	if (copy == NULL) {
		return false;
	}
	free(*field);
	*field = copy;
	return true;
}

static void parse_keyboard(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	struct fw_input_config *input = &config->input;
	if (line->count != 3) {
		line_error(config, line, "usage: keyboard SETTING VALUE");
		return;
	}
	const char *key = line->words[1], *value = line->words[2];
	char **names[] = {&input->xkb_layout, &input->xkb_variant,
			&input->xkb_options, &input->xkb_model, &input->xkb_rules};
	const char *keys[] = {"layout", "variant", "options", "model", "rules"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		if (strcmp(key, keys[i]) == 0) {
			if (!set_string(names[i], value)) {
				line_error(config, line, "out of memory");
			}
			parser->keymap_line = line->number;
			return;
		}
	}
	if (strcmp(key, "repeat-rate") == 0) {
		if (!sched_parse_int(value, 0, 1000, &input->repeat_rate)) {
			line_error(config, line,
					"bad repeat-rate '%s' (keys a second, 0 to 1000; 0: no "
					"repeat)",
					value);
		}
	} else if (strcmp(key, "repeat-delay") == 0) {
		if (!sched_parse_int(value, 1, 10000, &input->repeat_delay)) {
			line_error(config, line, "bad repeat-delay '%s' (ms, 1 to 10000)",
					value);
		}
	} else {
		line_error(config, line,
				"unknown keyboard setting '%s' (layout, variant, options, "
				"model, rules, repeat-rate, repeat-delay)",
				key);
	}
}

static void parse_pointer(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	struct fw_input_config *input = &config->input;
	if (line->count != 3) {
		line_error(config, line, "usage: pointer SETTING VALUE");
		return;
	}
	const char *key = line->words[1], *value = line->words[2];
	if (strcmp(key, "accel") == 0) {
		if (!sched_parse_double(value, -1, 1, &input->accel)) {
			line_error(config, line, "bad accel '%s' (-1 to 1)", value);
			return;
		}
		input->has_accel = true;
	} else if (strcmp(key, "accel-profile") == 0) {
		if (strcmp(value, "flat") == 0) {
			input->accel_profile = 0;
		} else if (strcmp(value, "adaptive") == 0) {
			input->accel_profile = 1;
		} else {
			line_error(config, line, "bad accel-profile '%s' (flat, adaptive)",
					value);
		}
	} else if (strcmp(key, "tap") == 0) {
		if (!parse_on_off(value, &input->tap)) {
			line_error(config, line, "bad tap '%s' (on, off)", value);
		}
	} else if (strcmp(key, "natural-scroll") == 0) {
		if (!parse_on_off(value, &input->natural_scroll)) {
			line_error(
					config, line, "bad natural-scroll '%s' (on, off)", value);
		}
	} else {
		line_error(config, line,
				"unknown pointer setting '%s' (accel, accel-profile, tap, "
				"natural-scroll)",
				key);
	}
}

static void parse_exec(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	if (line->count < 2) {
		line_error(config, line, "exec needs a command");
		return;
	}
	char *command = strdup(rest_of_line(line, 1));
	char **slot = command != NULL
			? fw_config_grow(&config->autostart, &config->autostart_count,
					  sizeof(*slot))
			: NULL;
	if (slot == NULL) {
		free(command);
		line_error(config, line, "out of memory");
		return;
	}
	*slot = command;
}

/* Adds a copy of word to *list; false when out of memory. */
static bool add_word(char ***list, size_t *count, const char *word) {
	char *copy = strdup(word);
	char **slot =
			copy != NULL ? fw_config_grow(list, count, sizeof(*slot)) : NULL;
	if (slot == NULL) {
		free(copy);
		return false;
	}
	*slot = copy;
	return true;
}

/*
 * scheduler manager PATH... | none: the executables, by full path, whose
 * clients are shown fairway_scheduler_manager_v1. A later line replaces
 * an earlier one.
 */
static void parse_manager(struct fw_config *config, const struct line *line) {
	struct fw_sched_config *sched = &config->sched;
	for (size_t i = 0; i < sched->manager_exe_count; i++) {
		free(sched->manager_exes[i]);
	}
	free(sched->manager_exes);
	sched->manager_exes = NULL;
	sched->manager_exe_count = 0;
	sched->manager_exes_set = true;
	if (line->count == 3 && strcmp(line->words[2], "none") == 0) {
		return;
	}
	for (size_t i = 2; i < line->count; i++) {
		const char *path = line->words[i];
		if (path[0] != '/' || strpbrk(path, "*?[") != NULL) {
			line_error(config, line,
					"scheduler manager takes executables by their full "
					"path, with no pattern: '%s'",
					path);
			return;
		}
		if (!add_word(&sched->manager_exes, &sched->manager_exe_count, path)) {
			line_error(config, line, "out of memory");
			return;
		}
	}
}

static void parse_scheduler(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	if (line->count >= 3 && strcmp(line->words[1], "manager") == 0) {
		parse_manager(config, line);
		return;
	}
	if (line->count != 3) {
		line_error(config, line, "usage: scheduler SETTING VALUE");
		return;
	}
	const char *key = line->words[1], *value = line->words[2];
	if (strcmp(key, "interval") == 0 || strcmp(key, "max-slice") == 0) {
		bool interval = key[0] == 'i';
		double ms;
		if (!sched_parse_double(value, 0.05, 1000, &ms)) {
			line_error(
					config, line, "bad %s '%s' (ms, 0.05 to 1000)", key, value);
		} else if (fw_config_take(interval ? &config->source.sched_interval
										   : &config->source.sched_max_slice,
						   FW_CONFIG_FILE)) {
			*(interval ? &config->sched.interval_ms
					   : &config->sched.max_slice_ms) = ms;
		}
		return;
	}
	if (strcmp(key, "hint-map") != 0) {
		line_error(config, line,
				"unknown scheduler setting '%s' (interval, max-slice, "
				"hint-map, manager)",
				key);
		return;
	}
	/* The same text as --hint-map; which class it set is its prefix. */
	struct hints_config scratch;
	hints_config_default(&scratch);
	const char *colon = strchr(value, ':');
	int class = -1;
	for (int i = 0; colon != NULL && i < RATINGS_CLASS_COUNT; i++) {
		const char *name = ratings_class_name((enum ratings_class)i);
		if (strlen(name) == (size_t)(colon - value) &&
				strncmp(value, name, strlen(name)) == 0) {
			class = i;
		}
	}
	if (class < 0 || !hints_config_parse_target(&scratch, value)) {
		line_error(config, line,
				"bad hint-map '%s' (CLASS:KEY=VALUE,... or CLASS:keep; "
				"CLASS interactive, output, background or idle; KEYs "
				"policy, nice, slice_us, uclamp_min)",
				value);
		return;
	}
	if (fw_config_take(&config->source.hint_map[class], FW_CONFIG_FILE)) {
		config->hints.targets[class] = scratch.targets[class];
	}
}

/* A class name, or a target of its own: keep, or KEY=VALUE,... */
static bool parse_hint(const char *text, struct fw_rule *rule) {
	for (int i = 0; i < RATINGS_CLASS_COUNT; i++) {
		if (strcmp(text, ratings_class_name((enum ratings_class)i)) == 0) {
			rule->hint = FW_HINT_CLASS;
			rule->class = (enum ratings_class)i;
			return true;
		}
	}
	/* The same keys as hint-map's, through its parser. */
	char *spec = NULL;
	if (asprintf(&spec, "%s:%s", ratings_class_name(RATINGS_IDLE), text) < 0) {
		return false;
	}
	struct hints_config scratch;
	hints_config_default(&scratch);
	bool ok = hints_config_parse_target(&scratch, spec);
	free(spec);
	if (ok) {
		rule->hint = FW_HINT_TARGET;
		rule->target = scratch.targets[RATINGS_IDLE];
	}
	return ok;
}

/*
 * Whether a rule gives more than a client has by itself: a priority above
 * 0, or a hint that lowers nice (interactive and output do by default).
 */
static bool raises(const struct fw_rule *rule) {
	if (rule->has_priority && rule->priority > 0) {
		return true;
	}
	if (rule->hint == FW_HINT_CLASS) {
		return rule->class == RATINGS_INTERACTIVE ||
				rule->class == RATINGS_OUTPUT;
	}
	return rule->hint == FW_HINT_TARGET && !rule->target.keep &&
			rule->target.set_nice && rule->target.nice < 0;
}

/*
 * Whether any client can make the rule match it: an app_id or an X class
 * is the client's to choose, and so is an executable's path where the
 * pattern leaves its directory open (any user may put a copy there).
 */
static bool matches_chosen_name(const struct fw_rule *rule) {
	if (rule->match != FW_MATCH_EXE) {
		return true;
	}
	const char *last_slash = strrchr(rule->pattern, '/');
	return last_slash == NULL ||
			strcspn(rule->pattern, "*?[") <
			(size_t)(last_slash - rule->pattern);
}

static void parse_rule(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	/* A last word "spoofable" says the file means what it says. */
	size_t count = line->count;
	bool spoofable =
			count > 2 && strcmp(line->words[count - 1], "spoofable") == 0;
	if (spoofable) {
		count--;
	}
	if (count < 4 || count % 2 != 0) {
		line_error(config, line,
				"usage: rule app_id|class|exe=PATTERN [priority N] [hint "
				"CLASS|keep|KEY=VALUE,...] [processes one|tree] [spoofable]");
		return;
	}
	struct fw_rule rule = {.line = line->number};
	const char *match = line->words[1];
	const char *eq = strchr(match, '=');
	size_t kind = eq != NULL ? (size_t)(eq - match) : 0;
	if (kind == 6 && strncmp(match, "app_id", kind) == 0) {
		rule.match = FW_MATCH_APP_ID;
	} else if (kind == 5 && strncmp(match, "class", kind) == 0) {
		rule.match = FW_MATCH_X_CLASS;
	} else if (kind == 3 && strncmp(match, "exe", kind) == 0) {
		rule.match = FW_MATCH_EXE;
	} else {
		line_error(config, line,
				"bad match '%s' (app_id=PATTERN, class=PATTERN or "
				"exe=PATTERN)",
				match);
		return;
	}
	if (eq[1] == '\0') {
		line_error(config, line, "empty pattern in '%s'", match);
		return;
	}
	if (rule.match == FW_MATCH_EXE && eq[1] != '/' && eq[1] != '*') {
		line_error(config, line,
				"exe= matches the executable's full path: exe=/usr/bin/NAME, "
				"or exe=*/NAME for a copy anywhere");
		return;
	}
	for (size_t i = 2; i < count; i += 2) {
		const char *key = line->words[i], *value = line->words[i + 1];
		if (strcmp(key, "priority") == 0) {
			if (!sched_parse_int(value, -20, 20, &rule.priority)) {
				line_error(
						config, line, "bad priority '%s' (-20 to 20)", value);
				return;
			}
			rule.has_priority = true;
		} else if (strcmp(key, "hint") == 0) {
			if (!parse_hint(value, &rule)) {
				line_error(config, line,
						"bad hint '%s' (interactive, output, background, "
						"idle; keep; or KEY=VALUE,... with policy, nice, "
						"slice_us, uclamp_min)",
						value);
				return;
			}
		} else if (strcmp(key, "processes") == 0) {
			if (strcmp(value, "one") != 0 && strcmp(value, "tree") != 0) {
				line_error(config, line,
						"bad processes '%s' (one: the client's own process; "
						"tree: its application)",
						value);
				return;
			}
			rule.has_processes = true;
			rule.one_process = strcmp(value, "one") == 0;
		} else {
			line_error(config, line,
					"unknown rule setting '%s' (priority, "
					"hint, processes)",
					key);
			return;
		}
	}
	if (rule.match == FW_MATCH_X_CLASS && rule.has_priority) {
		/* The gate sees one connection for every X client: Xwayland's. */
		line_error(config, line,
				"priority cannot apply to X windows, which share Xwayland's "
				"connection: use exe=Xwayland for all of them");
		return;
	}
	rule.pattern = strdup(eq + 1);
	if (rule.pattern != NULL && matches_chosen_name(&rule)) {
		rule.claimable = true;
		if (raises(&rule) && !spoofable) {
			line_error(config, line,
					"any client can claim '%s' (it chooses that name "
					"itself): a priority above 0 or a hint that lowers nice "
					"needs 'spoofable' at the end of the rule",
					match);
			free(rule.pattern);
			return;
		}
	}
	struct fw_rule *slot = rule.pattern != NULL
			? fw_config_grow(&config->rules, &config->rule_count, sizeof(*slot))
			: NULL;
	if (slot == NULL) {
		free(rule.pattern);
		line_error(config, line, "out of memory");
		return;
	}
	*slot = rule;
}

/* decorations server|client: who draws the frame of a window that states
 * no preference (shell/decoration.c). */
static void parse_decorations(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	if (line->count != 2 ||
			(strcmp(line->words[1], "server") != 0 &&
					strcmp(line->words[1], "client") != 0)) {
		line_error(config, line, "usage: decorations server|client");
		return;
	}
	config->decorations_server = strcmp(line->words[1], "server") == 0;
}

/* Adds one global of a sandbox allow line; false when out of memory. */
static bool add_sandbox_allow(struct fw_config *config, const char *engine,
		const char *app_id, const char *global) {
	struct fw_sandbox_allow allow = {
			.engine = engine != NULL ? strdup(engine) : NULL,
			.app_id = app_id != NULL ? strdup(app_id) : NULL,
			.global = strdup(global),
	};
	struct fw_sandbox_allow *slot = NULL;
	if ((engine == NULL || allow.engine != NULL) &&
			(app_id == NULL || allow.app_id != NULL) && allow.global != NULL) {
		slot = fw_config_grow(&config->sandbox_allow,
				&config->sandbox_allow_count, sizeof(*slot));
	}
	if (slot == NULL) {
		free(allow.engine);
		free(allow.app_id);
		free(allow.global);
		return false;
	}
	*slot = allow;
	return true;
}

/*
 * sandbox allow [engine=PATTERN] [app_id=PATTERN] GLOBAL...: privileged
 * globals sandboxed clients see too, those of a sandbox engine or an
 * application only where the line names one.
 */
static void parse_sandbox(struct parser *parser, const struct line *line) {
	struct fw_config *config = parser->config;
	if (line->count < 3 || strcmp(line->words[1], "allow") != 0) {
		line_error(config, line,
				"usage: sandbox allow [engine=PATTERN] [app_id=PATTERN] "
				"GLOBAL...");
		return;
	}
	const char *engine = NULL, *app_id = NULL;
	size_t first = 2;
	for (; first < line->count; first++) {
		const char *word = line->words[first];
		if (strncmp(word, "engine=", 7) == 0 && engine == NULL) {
			engine = word + 7;
		} else if (strncmp(word, "app_id=", 7) == 0 && app_id == NULL) {
			app_id = word + 7;
		} else {
			break;
		}
	}
	if (first == line->count || (engine != NULL && *engine == '\0') ||
			(app_id != NULL && *app_id == '\0')) {
		line_error(config, line,
				"usage: sandbox allow [engine=PATTERN] [app_id=PATTERN] "
				"GLOBAL...");
		return;
	}
	for (size_t i = first; i < line->count; i++) {
		const char *name = line->words[i];
		if (!fw_config_privileged_global(name)) {
			line_error(config, line,
					"'%s' is no privileged global (a sandboxed client sees "
					"the others anyway)",
					name);
			return;
		}
		/* A sandbox inside a sandbox would make its clients' context
		 * the inner engine's word, not the outer one's. */
		if (strcmp(name, "wp_security_context_manager_v1") == 0) {
			line_error(config, line,
					"'%s' is for clients outside any sandbox alone", name);
			return;
		}
		if (!add_sandbox_allow(config, engine, app_id, name)) {
			line_error(config, line, "out of memory");
			return;
		}
	}
}

static const struct {
	const char *name;
	void (*parse)(struct parser *parser, const struct line *line);
} directives[] = {
		{"bind", parse_bind},
		{"unbind", parse_unbind},
		{"output", parse_output},
		{"keyboard", parse_keyboard},
		{"pointer", parse_pointer},
		{"exec", parse_exec},
		{"scheduler", parse_scheduler},
		{"rule", parse_rule},
		{"decorations", parse_decorations},
		{"sandbox", parse_sandbox},
};

bool fw_directives_known(const char *name) {
	for (size_t i = 0; i < sizeof(directives) / sizeof(*directives); i++) {
		if (strcmp(name, directives[i].name) == 0) {
			return true;
		}
	}
	return false;
}

/*
 * Whether a word could be a misspelt directive: a short lower-case name.
 * Anything else is not echoed in the error: it may be a line of a file
 * that is no configuration at all (a password, a key).
 */
static bool looks_like_a_name(const char *word) {
	size_t len = strspn(word, "abcdefghijklmnopqrstuvwxyz0123456789-_");
	return len > 0 && len <= 24 && word[len] == '\0';
}

void fw_directives_read(struct parser *parser, const struct line *line) {
	for (size_t i = 0; i < sizeof(directives) / sizeof(*directives); i++) {
		if (strcmp(line->words[0], directives[i].name) == 0) {
			directives[i].parse(parser, line);
			return;
		}
	}
	if (looks_like_a_name(line->words[0])) {
		line_error(parser->config, line,
				"unknown directive '%s' (bind, unbind, output, keyboard, "
				"pointer, exec, scheduler, rule, decorations, sandbox)",
				line->words[0]);
	} else {
		line_error(parser->config, line,
				"no directive (bind, unbind, output, keyboard, pointer, exec, "
				"scheduler, rule, decorations, sandbox) begins this line");
	}
}

static void ignore_xkb_log(struct xkb_context *context,
		enum xkb_log_level level, const char *format, va_list args) {
}

/* A keymap that would not compile is caught here, not at the next key. */
void fw_directives_check_keymap(struct parser *parser, const char *path) {
	const struct fw_input_config *input = &parser->config->input;
	if (parser->keymap_line == 0) {
		return;
	}
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (context == NULL) {
		return;
	}
	xkb_context_set_log_fn(context, ignore_xkb_log);
	struct xkb_keymap *keymap = fw_config_keymap(input, context);
	if (keymap == NULL) {
		struct line line = {.path = path, .number = parser->keymap_line};
		line_error(parser->config, &line,
				"no keymap compiles from layout '%s', variant '%s', options "
				"'%s', model '%s', rules '%s' (see xkeyboard-config(7))",
				input->xkb_layout ? input->xkb_layout : "",
				input->xkb_variant ? input->xkb_variant : "",
				input->xkb_options ? input->xkb_options : "",
				input->xkb_model ? input->xkb_model : "",
				input->xkb_rules ? input->xkb_rules : "");
	}
	xkb_keymap_unref(keymap);
	xkb_context_unref(context);
}
