#ifndef FAIRWAY_COMPOSITOR_SHELL_TITLEBAR_H
#define FAIRWAY_COMPOSITOR_SHELL_TITLEBAR_H

#include <stdbool.h>

struct fw_title;
struct wlr_scene_tree;

/* The text of a window's title bar, as a scene node under parent. */
struct fw_title *fw_titlebar_create(struct wlr_scene_tree *parent);
void fw_titlebar_destroy(struct fw_title *title);

/*
 * Shows text in a bar of width x height at (x, y) of the parent, drawn for
 * an output of the given scale and cut short with an ellipsis where it
 * does not fit, and the maximize and close buttons at the bar's right end
 * (fw_titlebar_button_at says which is where). Draws again only when something
 * changed; text NULL or empty shows no text.
 */
void fw_titlebar_update(struct fw_title *title, const char *text, int x, int y,
		int width, int height, float scale, bool maximized);

enum fw_titlebar_button {
	FW_TITLEBAR_NO_BUTTON,
	FW_TITLEBAR_MAXIMIZE,
	FW_TITLEBAR_CLOSE,
};

/* Which button x, from the bar's left edge, falls on in a bar of width
 * and height. */
static inline enum fw_titlebar_button fw_titlebar_button_at(
		int x, int width, int height) {
	if (x >= width - height && x < width) {
		return FW_TITLEBAR_CLOSE;
	}
	if (x >= width - 2 * height && x < width - height) {
		return FW_TITLEBAR_MAXIMIZE;
	}
	return FW_TITLEBAR_NO_BUTTON;
}

void fw_titlebar_set_enabled(struct fw_title *title, bool enabled);

/* Releases the fonts titles were drawn with; at exit, after the last
 * title is gone. */
void fw_titlebar_finish_fonts(void);

#endif
