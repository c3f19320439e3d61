#ifndef FAIRWAY_COMPOSITOR_SHELL_TITLEBAR_H
#define FAIRWAY_COMPOSITOR_SHELL_TITLEBAR_H

#include <stdbool.h>

struct fw_title;
struct wlr_scene_node;

/* The text of a window's title bar, as a scene node under parent. */
struct fw_title *fw_titlebar_create(struct wlr_scene_node *parent);
void fw_titlebar_destroy(struct fw_title *title);

/*
 * Shows text in a bar of width x height at (x, y) of the parent, drawn for
 * an output of the given scale and cut short with an ellipsis where it
 * does not fit. Draws again only when something changed; text NULL or
 * empty shows nothing.
 */
void fw_titlebar_update(struct fw_title *title, const char *text, int x, int y,
		int width, int height, float scale);

void fw_titlebar_set_enabled(struct fw_title *title, bool enabled);

/* Releases the fonts titles were drawn with; at exit, after the last
 * title is gone. */
void fw_titlebar_finish_fonts(void);

#endif
