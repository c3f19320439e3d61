#include "compositor/config/config_file.h"
#include "compositor/config/parser.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>

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
		fw_config_add_error(
				parser->config, line->path, line->number, "%s", why);
		return;
	}
	if (line->count > 0) {
		fw_directives_read(parser, line);
	}
}

/* What fairway did before it read a file. */
static bool add_builtin_bindings(struct fw_config *config) {
	return fw_config_set_binding(config, FW_MOD_LOGO, XKB_KEY_Return,
				   FW_ACTION_TERMINAL, NULL) &&
			fw_config_set_binding(
					config, FW_MOD_LOGO, XKB_KEY_q, FW_ACTION_CLOSE, NULL) &&
			fw_config_set_binding(config, FW_MOD_ALT, XKB_KEY_Tab,
					FW_ACTION_CYCLE_FOCUS, NULL) &&
			fw_config_set_binding(config, FW_MOD_LOGO | FW_MOD_SHIFT, XKB_KEY_e,
					FW_ACTION_EXIT, NULL);
}

bool fw_config_file_parse(
		struct fw_config *config, const char *path, const char *text) {
	size_t errors_before = config->error_count;
	if (!add_builtin_bindings(config)) {
		fw_config_add_error(config, path, 0, "out of memory");
		return false;
	}
	struct parser parser = {.config = config};
	const char *p = text;
	for (int number = 1; *p != '\0'; number++) {
		const char *end = strchr(p, '\n');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		char *copy = strndup(p, len);
		if (copy == NULL) {
			fw_config_add_error(config, path, number, "out of memory");
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
	fw_directives_check_keymap(&parser, path);
	return config->error_count == errors_before;
}

bool fw_config_file_load(struct fw_config *config, const char *path) {
	if (path == NULL) {
		if (!add_builtin_bindings(config)) {
			fw_config_add_error(config, "fairway", 0, "out of memory");
			return false;
		}
		return true;
	}
	FILE *file = fopen(path, "re");
	if (file == NULL) {
		fw_config_add_error(
				config, path, 0, "cannot read: %s", strerror(errno));
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
		fw_config_add_error(config, path, 0, "cannot read: %s",
				strerror(read_error != 0 ? read_error : ENOMEM));
		return false;
	}
	if (strlen(text) != size) {
		free(text);
		fw_config_add_error(
				config, path, 0, "not a text file (it holds a NUL byte)");
		return false;
	}
	bool ok = fw_config_file_parse(config, path, text);
	free(text);
	return ok;
}
