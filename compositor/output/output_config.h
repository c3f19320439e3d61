#ifndef FAIRWAY_COMPOSITOR_OUTPUT_OUTPUT_CONFIG_H
#define FAIRWAY_COMPOSITOR_OUTPUT_OUTPUT_CONFIG_H

#include <stdbool.h>

struct fw_output;
struct fw_server;
struct wlr_output;

/*
 * The configuration file's output lines. Commits a new output with its
 * configured mode, scale, transform and state, or its preferred mode if
 * the file has none or they fail.
 */
bool fw_output_config_commit_first(
		struct fw_server *server, struct wlr_output *output);
/* Puts an enabled output at its configured position, else anywhere, and
 * takes a disabled one out of the layout. False if it could not be put. */
bool fw_output_config_place(struct fw_output *output);
/* Applies the file to a running output (a reload). */
void fw_output_config_apply(struct fw_output *output);

#endif
