#ifndef FAIRWAY_COMPOSITOR_CONFIG_PARSER_H
#define FAIRWAY_COMPOSITOR_CONFIG_PARSER_H

/*
 * Internal to the configuration file parser: config_file.c splits lines,
 * directives.c reads each directive into the configuration.
 */

#include "compositor/config/config.h"
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
	struct fw_config *config;
	/* The last line that set an xkb name, for a keymap that fails. */
	int keymap_line;
	/* A line began with a directive: the file is a configuration. */
	bool seen_directive;
};

/* Whether name is a directive's. */
bool fw_directives_known(const char *name);
/* Reads one line's directive (directives.c). */
void fw_directives_read(struct parser *parser, const struct line *line);
/* Checks that the keyboard settings make a keymap, once the file is read. */
void fw_directives_check_keymap(struct parser *parser, const char *path);

#endif
