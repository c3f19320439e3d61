#include "clients/common/options.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_usage(const struct fw_program *prog, FILE *f) {
	fprintf(f, "usage: %s [options]\n%s\n\noptions:\n", prog->name,
			prog->summary);
	for (size_t i = 0; i < prog->option_count; i++) {
		const struct fw_option *opt = &prog->options[i];
		char left[64];
		snprintf(left, sizeof(left), "--%s%s%s", opt->name,
				opt->arg != NULL ? " " : "", opt->arg != NULL ? opt->arg : "");
		fprintf(f, "  %-22s %s\n", left, opt->help);
	}
	fprintf(f, "  %-22s %s\n", "--help", "show this help and exit");
}

void fw_options_usage_error(
		const struct fw_program *prog, const char *what, const char *arg) {
	fprintf(stderr, "%s: %s: %s\n", prog->name, what, arg);
	print_usage(prog, stderr);
	exit(2);
}

static bool parse_uint(const char *s, double min, unsigned *out) {
	if (*s == '\0' || *s == '-' || *s == '+') {
		return false;
	}
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > 1000000000ul || (double)v < min) {
		return false;
	}
	*out = (unsigned)v;
	return true;
}

static bool parse_double(const char *s, double min, double *out) {
	if (*s == '\0') {
		return false;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v) || !(v > min)) {
		return false;
	}
	*out = v;
	return true;
}

static bool parse_size(const char *s, struct fw_size *out) {
	unsigned w, h;
	char x, extra;
	if (sscanf(s, "%u%c%u%c", &w, &x, &h, &extra) != 3 || x != 'x') {
		return false;
	}
	/* A 16k limit keeps width * height * 4 well inside int32_t. */
	if (w == 0 || h == 0 || w > 16384 || h > 16384) {
		return false;
	}
	out->width = (int)w;
	out->height = (int)h;
	return true;
}

static bool parse_choice(const struct fw_option *opt, const char *s) {
	if (opt->choices == NULL) {
		*(const char **)opt->value = s;
		return s[0] != '\0';
	}
	for (const char *const *c = opt->choices; c != NULL && *c != NULL; c++) {
		if (strcmp(*c, s) == 0) {
			*(const char **)opt->value = *c;
			return true;
		}
	}
	return false;
}

static bool parse_value(const struct fw_option *opt, const char *s) {
	switch (opt->type) {
	case FW_OPTION_FLAG:
		return false;
	case FW_OPTION_UINT:
		return parse_uint(s, opt->min, opt->value);
	case FW_OPTION_DOUBLE:
		return parse_double(s, opt->min, opt->value);
	case FW_OPTION_SIZE:
		return parse_size(s, opt->value);
	case FW_OPTION_STRING:
		return parse_choice(opt, s);
	}
	return false;
}

static const struct fw_option *find_option(
		const struct fw_program *prog, const char *name, size_t len) {
	for (size_t i = 0; i < prog->option_count; i++) {
		const struct fw_option *opt = &prog->options[i];
		if (strlen(opt->name) == len && strncmp(opt->name, name, len) == 0) {
			return opt;
		}
	}
	return NULL;
}

void fw_options_parse(const struct fw_program *prog, int argc, char **argv) {
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			print_usage(prog, stdout);
			exit(0);
		}
		if (strncmp(a, "--", 2) != 0) {
			fw_options_usage_error(prog, "unexpected argument", a);
		}
		const char *name = a + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq != NULL ? (size_t)(eq - name) : strlen(name);
		const struct fw_option *opt = find_option(prog, name, len);
		if (opt == NULL) {
			fw_options_usage_error(prog, "unknown option", a);
		}
		if (opt->type == FW_OPTION_FLAG) {
			if (eq != NULL) {
				fw_options_usage_error(prog, "option takes no value", a);
			}
			*(bool *)opt->value = true;
			continue;
		}
		const char *val;
		if (eq != NULL) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			fw_options_usage_error(prog, "missing value for", a);
			return;
		}
		if (!parse_value(opt, val)) {
			fw_options_usage_error(prog, "bad value for", a);
		}
	}
}
