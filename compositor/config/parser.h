#ifndef FAIRWAY_COMPOSITOR_CONFIG_PARSER_H
#define FAIRWAY_COMPOSITOR_CONFIG_PARSER_H

/*
 * Internal to the configuration file parser: config_file.c splits lines
 * and keeps the result, config_directives.c reads each directive.
 */

#include "compositor/config/config_file.h"
#include <stddef.h>
#include <stdint.h>

#define FW_CONFIG_MAX_WORDS 64

/* One line, split into words the way sh(1) splits them. */
struct line {
	const char *path;
	int number;
	const char *text; /* the whole line, for exec's command */
	char *words[FW_CONFIG_MAX_WORDS];
	size_t starts[FW_CONFIG_MAX_WORDS]; /* where each word starts in text */
	size_t count;
};

struct parser {
	struct fw_file_config *config;
	/* The last line that set an xkb name, for a keymap that fails. */
	int keymap_line;
};

/* Records "PATH:LINE: message". */
__attribute__((format(printf, 3, 4))) void fw_config_error(
		struct fw_file_config *config, const struct line *line, const char *fmt,
		...);
/* Grows *array by one zeroed element of size; NULL when out of memory. */
void *fw_config_grow(void *array, size_t *count, size_t size);

struct fw_binding *fw_config_find_binding(
		struct fw_file_config *config, uint32_t modifiers, uint32_t keysym);
/* Adds or replaces the binding of these keys; false when out of memory. */
bool fw_config_set_binding(struct fw_file_config *config, uint32_t modifiers,
		uint32_t keysym, enum fw_action action, const char *command);
/* Sets in out what in sets. */
void fw_config_merge_output(
		struct fw_output_config *out, const struct fw_output_config *in);

/* Reads one line's directive (config_directives.c). */
void fw_config_directive(struct parser *parser, const struct line *line);
/* Checks that the keyboard settings make a keymap, once the file is read. */
void fw_config_check_keymap(struct parser *parser, const char *path);

#endif
