#include "compositor/config/config_file.h"
#include "compositor/config/parser.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>

/* Records "PATH:LINE: message", or "PATH: message" for line 0. */
__attribute__((format(printf, 4, 0))) static void add_verror(
		struct fw_file_config *config, const char *path, int number,
		const char *fmt, va_list args) {
	char message[512];
	vsnprintf(message, sizeof(message), fmt, args);
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

void fw_config_error(struct fw_file_config *config, const struct line *line,
		const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	add_verror(config, line->path, line->number, fmt, args);
	va_end(args);
}

__attribute__((format(printf, 3, 4))) static void add_file_error(
		struct fw_file_config *config, const char *path, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	add_verror(config, path, 0, fmt, args);
	va_end(args);
}

/* Grows *array by one zeroed element of size; NULL when out of memory. */
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
		struct fw_file_config *config, uint32_t modifiers, uint32_t keysym) {
	for (size_t i = 0; i < config->binding_count; i++) {
		struct fw_binding *binding = &config->bindings[i];
		if (binding->modifiers == modifiers && binding->keysym == keysym) {
			return binding;
		}
	}
	return NULL;
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

bool fw_action_from_name(const char *name, enum fw_action *action) {
	for (size_t i = 0; i < sizeof(action_names) / sizeof(*action_names); i++) {
		if (strcmp(name, action_names[i]) == 0) {
			*action = (enum fw_action)i;
			return true;
		}
	}
	return false;
}

bool fw_config_set_binding(struct fw_file_config *config, uint32_t modifiers,
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

/* The command of exec: the rest of the line from word i, as written. */
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

/*
 * Splits one line into words: blanks separate them; '...' quotes
 * everything; "..." quotes everything but a backslash before " \ $ or `;
 * outside quotes a backslash quotes the next character. False, with a
 * message, on an unterminated quote or too many words.
 */
static bool split_line(struct line *line, const char **why) {
	const char *p = line->text;
	size_t len = strlen(p);
	char *buf = malloc(len + 1);
	if (buf == NULL) {
		*why = "out of memory";
		return false;
	}
	for (;;) {
		while (*p == ' ' || *p == '\t') {
			p++;
		}
		if (*p == '\0') {
			break;
		}
		if (line->count == FW_CONFIG_MAX_WORDS) {
			*why = "too many words on one line";
			free(buf);
			return false;
		}
		size_t start = (size_t)(p - line->text);
		size_t n = 0;
		while (*p != '\0' && *p != ' ' && *p != '\t') {
			if (*p == '\'') {
				const char *end = strchr(p + 1, '\'');
				if (end == NULL) {
					*why = "unterminated ' quote";
					free(buf);
					return false;
				}
				memcpy(buf + n, p + 1, (size_t)(end - p - 1));
				n += (size_t)(end - p - 1);
				p = end + 1;
			} else if (*p == '"') {
				p++;
				while (*p != '"') {
					if (*p == '\0') {
						*why = "unterminated \" quote";
						free(buf);
						return false;
					}
					if (*p == '\\' && p[1] != '\0' && strchr("\"\\$`", p[1])) {
						p++;
					}
					buf[n++] = *p++;
				}
				p++;
			} else if (*p == '\\' && p[1] != '\0') {
				buf[n++] = p[1];
				p += 2;
			} else {
				buf[n++] = *p++;
			}
		}
		line->words[line->count] = strndup(buf, n);
		if (line->words[line->count] == NULL) {
			*why = "out of memory";
			free(buf);
			return false;
		}
		line->starts[line->count++] = start;
	}
	free(buf);
	return true;
}

static void line_finish(struct line *line) {
	for (size_t i = 0; i < line->count; i++) {
		free(line->words[i]);
	}
	line->count = 0;
}

static void parse_line(struct parser *parser, struct line *line) {
	const char *why = NULL;
	if (!split_line(line, &why)) {
		fw_config_error(parser->config, line, "%s", why);
		return;
	}
	if (line->count > 0) {
		fw_config_directive(parser, line);
	}
}

bool fw_file_config_parse(
		struct fw_file_config *config, const char *path, const char *text) {
	size_t errors_before = config->error_count;
	struct parser parser = {.config = config};
	const char *p = text;
	for (int number = 1; *p != '\0'; number++) {
		const char *end = strchr(p, '\n');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		char *copy = strndup(p, len);
		if (copy == NULL) {
			struct line line = {.path = path, .number = number};
			fw_config_error(config, &line, "out of memory");
			break;
		}
		/* Trailing blanks (and a CR) are no part of the last word. */
		while (len > 0 && strchr(" \t\r", copy[len - 1]) != NULL) {
			copy[--len] = '\0';
		}
		const char *start = copy + strspn(copy, " \t");
		if (*start != '\0' && *start != '#') {
			struct line line = {.path = path, .number = number, .text = start};
			parse_line(&parser, &line);
			line_finish(&line);
		}
		free(copy);
		p = end != NULL ? end + 1 : p + len;
	}
	fw_config_check_keymap(&parser, path);
	return config->error_count == errors_before;
}

bool fw_file_config_load(struct fw_file_config *config, const char *path) {
	FILE *file = fopen(path, "re");
	if (file == NULL) {
		add_file_error(config, path, "cannot read: %s", strerror(errno));
		return false;
	}
	char *text = NULL;
	size_t size = 0;
	FILE *memory = open_memstream(&text, &size);
	char buf[4096];
	size_t n;
	while (memory != NULL && (n = fread(buf, 1, sizeof(buf), file)) > 0) {
		fwrite(buf, 1, n, memory);
	}
	int read_error = ferror(file) ? EIO : 0;
	fclose(file);
	if (memory == NULL || fclose(memory) != 0 || read_error != 0) {
		free(text);
		add_file_error(config, path, "cannot read: %s",
				strerror(read_error != 0 ? read_error : ENOMEM));
		return false;
	}
	if (strlen(text) != size) {
		free(text);
		add_file_error(config, path, "not a text file (it holds a NUL byte)");
		return false;
	}
	bool ok = fw_file_config_parse(config, path, text);
	free(text);
	return ok;
}

struct xkb_keymap *fw_input_config_keymap(
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

struct fw_file_config *fw_file_config_create(void) {
	struct fw_file_config *config = calloc(1, sizeof(*config));
	if (config == NULL) {
		return NULL;
	}
	config->input = (struct fw_input_config){
			.repeat_rate = 25,
			.repeat_delay = 600,
			.accel_profile = -1,
			.tap = -1,
			.natural_scroll = -1,
	};
	/* What fairway did before it read a file. */
	bool ok = fw_config_set_binding(config, FW_MOD_LOGO, XKB_KEY_Return,
					  FW_ACTION_TERMINAL, NULL) &&
			fw_config_set_binding(
					config, FW_MOD_LOGO, XKB_KEY_q, FW_ACTION_CLOSE, NULL) &&
			fw_config_set_binding(config, FW_MOD_ALT, XKB_KEY_Tab,
					FW_ACTION_CYCLE_FOCUS, NULL) &&
			fw_config_set_binding(config, FW_MOD_LOGO | FW_MOD_SHIFT, XKB_KEY_e,
					FW_ACTION_EXIT, NULL);
	if (!ok) {
		fw_file_config_destroy(config);
		return NULL;
	}
	return config;
}

void fw_file_config_destroy(struct fw_file_config *config) {
	if (config == NULL) {
		return;
	}
	for (size_t i = 0; i < config->binding_count; i++) {
		free(config->bindings[i].command);
	}
	free(config->bindings);
	for (size_t i = 0; i < config->output_count; i++) {
		free(config->outputs[i].name);
	}
	free(config->outputs);
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
	for (size_t i = 0; i < config->error_count; i++) {
		free(config->errors[i]);
	}
	free(config->errors);
	free(config);
}

const struct fw_binding *fw_file_config_binding(
		const struct fw_file_config *config, uint32_t modifiers,
		uint32_t keysym) {
	return fw_config_find_binding((struct fw_file_config *)config, modifiers,
			xkb_keysym_to_lower(keysym));
}

bool fw_file_config_output(const struct fw_file_config *config,
		const char *name, struct fw_output_config *out) {
	*out = (struct fw_output_config){.transform = -1, .enabled = -1};
	bool found = false;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < config->output_count; i++) {
			const struct fw_output_config *entry = &config->outputs[i];
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
