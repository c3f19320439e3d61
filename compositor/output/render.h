#ifndef FAIRWAY_COMPOSITOR_OUTPUT_RENDER_H
#define FAIRWAY_COMPOSITOR_OUTPUT_RENDER_H

#include <stdbool.h>

struct wlr_scene_output;

/*
 * Renders and commits the scene output's damage, as wlr_scene_output_commit
 * does, painting each damaged pixel once where the renderer is pixman.
 */
bool fw_render_output(struct wlr_scene_output *scene_output);

#endif
