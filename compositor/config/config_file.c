#include "compositor/config/config_file.h"
#include "compositor/config/parser.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
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

/*
 * Reads one line. The first line with words must begin with a directive:
 * otherwise the file is no configuration (fairway --check-config
 * /etc/shadow), nothing more of it is read, and no word of it is echoed.
 * False when the file is not to be read further.
 */
static bool parse_line(struct parser *parser, struct line *line) {
	const char *why = NULL;
	bool split = split_line(line, &why);
	if (!parser->seen_directive &&
			(!split ||
					(line->count > 0 &&
							!fw_directives_known(line->words[0])))) {
		fw_config_add_error(parser->config, line->path, line->number,
				"not a fairway configuration file: its first line is no "
				"directive; nothing in it is read");
		return false;
	}
	if (!split) {
		fw_config_add_error(
				parser->config, line->path, line->number, "%s", why);
		return true;
	}
	if (line->count > 0) {
		parser->seen_directive = true;
		fw_directives_read(parser, line);
	}
	return true;
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
	bool more = true;
	for (int number = 1; more && *p != '\0'; number++) {
		const char *end = strchr(p, '\n');
		size_t line_len = end != NULL ? (size_t)(end - p) : strlen(p);
		char *copy = strndup(p, line_len);
		if (copy == NULL) {
			fw_config_add_error(config, path, number, "out of memory");
			break;
		}
		/* Trailing blanks (and a CR) are no part of the last word. */
		size_t len = line_len;
		while (len > 0 && strchr(" \t\r", copy[len - 1]) != NULL) {
			copy[--len] = '\0';
		}
		const char *start = copy + strspn(copy, " \t");
		if (*start != '\0' && *start != '#') {
			struct line line = {.path = path, .number = number, .text = start};
			more = parse_line(&parser, &line);
			line_finish(&line);
		}
		free(copy);
		/* Past the whole line as it was, not as it was trimmed. */
		p = end != NULL ? end + 1 : p + line_len;
	}
	fw_directives_check_keymap(&parser, path);
	return config->error_count == errors_before;
}

/* /dev/null: no configuration at all (--config /dev/null), read as "". */
static bool is_dev_null(const struct stat *st) {
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

/*
 * Why fairway will not read the file it opened, or NULL. Never anything
 * but a regular file (or /dev/null), which cannot block (a fifo would
 * stop the event loop on a reload) nor run on for ever (/dev/zero), and
 * of a bounded size. As root, only a file root owns that no one else may
 * write: a configuration runs commands (exec, bind) as root.
 */
static const char *refusal(const struct stat *st) {
	if (is_dev_null(st)) {
		return NULL;
	}
	if (!S_ISREG(st->st_mode)) {
		return "not a regular file";
	}
	if (st->st_size > FW_CONFIG_MAX_BYTES) {
		return "larger than 1 MiB";
	}
	if (geteuid() == 0 && st->st_uid != 0) {
		return "fairway runs as root, and the file is not root's";
	}
	if (geteuid() == 0 && (st->st_mode & (S_IWGRP | S_IWOTH))) {
		return "fairway runs as root, and others may write the file";
	}
	return NULL;
}

/* The whole file, NUL-terminated, in *text; false with errno. */
static bool read_whole(int fd, size_t size, char **text) {
	char *buf = malloc(size + 2);
	if (buf == NULL) {
		return false;
	}
	size_t got = 0;
	/* One byte more than fstat said: a file that grew is refused. */
	while (got < size + 1) {
		ssize_t n = read(fd, buf + got, size + 1 - got);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			free(buf);
			return false;
		}
		if (n == 0) {
			break;
		}
		got += (size_t)n;
	}
	if (got > size) {
		free(buf);
		errno = EFBIG;
		return false;
	}
	buf[got] = '\0';
	*text = buf;
	return true;
}

bool fw_config_file_load(struct fw_config *config, const char *path) {
	if (path == NULL) {
		if (!add_builtin_bindings(config)) {
			fw_config_add_error(config, "fairway", 0, "out of memory");
			return false;
		}
		return true;
	}
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		fw_config_add_error(
				config, path, 0, "cannot read: %s", strerror(errno));
		return false;
	}
	struct stat st;
	const char *why = fstat(fd, &st) != 0 ? strerror(errno) : refusal(&st);
	char *text = NULL;
	if (why == NULL && !read_whole(fd, (size_t)st.st_size, &text)) {
		why = strerror(errno);
	}
	close(fd);
	if (why != NULL) {
		fw_config_add_error(config, path, 0, "not read: %s", why);
		return false;
	}
	if (strlen(text) != (size_t)st.st_size) {
		free(text);
		fw_config_add_error(
				config, path, 0, "not a text file (it holds a NUL byte)");
		return false;
	}
	bool ok = fw_config_file_parse(config, path, text);
	free(text);
	return ok;
}
