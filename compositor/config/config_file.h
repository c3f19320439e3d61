#ifndef FAIRWAY_COMPOSITOR_CONFIG_CONFIG_FILE_H
#define FAIRWAY_COMPOSITOR_CONFIG_CONFIG_FILE_H

#include "compositor/config/config.h"
#include <stdbool.h>

/*
 * The configuration file, fairway(5): one directive a line, read into
 * struct fw_config. Parsing is pure (xkbcommon and the scheduler's hint
 * parser, no wlroots), so that --check-config, a reload and the unit test
 * see the same thing; applying it to a running server is
 * config_apply.c's business.
 */

/*
 * The built-in bindings, then text as the file at path (named in the
 * errors) over config: every error is recorded; false if there was any.
 * A setting a flag gave stays (config.h).
 */
bool fw_config_file_parse(
		struct fw_config *config, const char *path, const char *text);
/* No configuration file is larger: it is a few dozen lines. */
#define FW_CONFIG_MAX_BYTES (1024 * 1024)

/*
 * The same, reading the file at path; a file that cannot be read is an
 * error too, and so is one that is no regular file (/dev/null reads as an
 * empty one), is larger than FW_CONFIG_MAX_BYTES, or, when fairway runs
 * as root, is not root's or may be written by others. NULL path: no
 * file, the built-in bindings alone.
 */
bool fw_config_file_load(struct fw_config *config, const char *path);

#endif
