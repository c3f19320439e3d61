#include "compositor/config/config.h"
#include "compositor/config/config_file.h"
#include "tests/fuzz/fuzz_check.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The configuration file parser, on any text: fw_config_file_parse must
 * return (a last line that ended in a blank once made it spin), report its
 * errors as "fuzz:LINE: ..." with LINE in the text, say false exactly when
 * it reported one, read nothing of a file whose first line is no directive
 * and report it once, and leave nothing behind fw_config_finish (ASan's
 * leak check). The input is the file's text up to its first NUL byte, as
 * fw_config_file_load refuses the rest.
 */

/* Far more than a configuration has; beyond it a run only gets slower. */
#define MAX_INPUT (64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Lines as the parser numbers them: one more than the newlines. */
static int count_lines(const char *text) {
	int lines = 1;
	for (const char *p = text; *p != '\0'; p++) {
		lines += *p == '\n';
	}
	return lines;
}

/* Whether the first line with words starts with no directive's name. */
static bool starts_with_no_directive(const char *text) {
	static const char *const names[] = {"bind", "unbind", "output", "keyboard",
			"pointer", "exec", "scheduler", "rule", "sandbox"};
	const char *p = text;
	for (;;) {
		p += strspn(p, " \t\r\n");
		if (*p != '#') {
			break;
		}
		p += strcspn(p, "\n");
	}
	if (*p == '\0') {
		return false;
	}
	size_t len = strcspn(p, " \t\r\n");
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		if (len == strlen(names[i]) && strncmp(p, names[i], len) == 0) {
			return false;
		}
	}
	/* A quote may make a directive of the word: not decided here. */
	return strcspn(p, "'\"\\") >= len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size > MAX_INPUT) {
		return 0;
	}
	char *text = malloc(size + 1);
	FUZZ_CHECK(text != NULL);
	memcpy(text, data, size);
	text[size] = '\0';

	struct fw_config config;
	fw_config_init(&config);
	bool ok = fw_config_file_parse(&config, "fuzz", text);
	FUZZ_CHECK(ok == (config.error_count == 0));
	int lines = count_lines(text);
	for (size_t i = 0; i < config.error_count; i++) {
		const char *error = config.errors[i];
		FUZZ_CHECK(strncmp(error, "fuzz:", 5) == 0);
		char *end;
		long line = strtol(error + 5, &end, 10);
		/* "fuzz: message" for the file as a whole, else "fuzz:N: ". */
		if (end != error + 5) {
			FUZZ_CHECK(line >= 1 && line <= lines);
			FUZZ_CHECK(*end == ':');
		}
	}
	if (starts_with_no_directive(text)) {
		FUZZ_CHECK(config.error_count == 1);
		FUZZ_CHECK(config.autostart_count == 0 && config.rule_count == 0 &&
				config.output_config_count == 0);
	}
	fw_config_finish(&config);
	free(text);
	return 0;
}
