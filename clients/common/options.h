#ifndef FAIRWAY_CLIENTS_COMMON_OPTIONS_H
#define FAIRWAY_CLIENTS_COMMON_OPTIONS_H

#include <stddef.h>

enum fw_option_type {
	FW_OPTION_FLAG, /* bool, takes no argument */
	FW_OPTION_UINT, /* unsigned, at least `min` */
	FW_OPTION_DOUBLE, /* double, greater than `min` */
	FW_OPTION_SIZE, /* WxH into a struct fw_size */
	FW_OPTION_STRING, /* one of `choices` (NULL-terminated); NULL: any */
};

struct fw_size {
	int width, height;
};

struct fw_option {
	const char *name; /* without the leading "--" */
	enum fw_option_type type;
	void *value;
	const char *arg; /* placeholder shown in the usage text */
	const char *help;
	double min;
	const char *const *choices;
};

struct fw_program {
	const char *name;
	const char *summary;
	const struct fw_option *options;
	size_t option_count;
};

/*
 * Parses "--name value" and "--name=value". --help prints the usage to
 * stdout and exits 0; an unknown flag, a missing or malformed value or a
 * stray argument prints the usage to stderr and exits 2.
 */
void fw_options_parse(const struct fw_program *prog, int argc, char **argv);

/* For a check across options: prints what and arg, then the usage to
 * stderr, and exits 2. */
void fw_options_usage_error(
		const struct fw_program *prog, const char *what, const char *arg);

#endif
