/*
 * Window titles in the title bar, drawn with pango and cairo into an image
 * and put in the scene as a wlr_scene_buffer above the bar's rect.
 *
 * A new title or a new look of the buttons swaps the node's buffer; the
 * scene damages what the old and the new image covered.
 */
#include "compositor/shell/titlebar.h"
#include "compositor/shell/cairo_buffer.h"
#include <fontconfig/fontconfig.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <string.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

#define TITLE_FONT "sans 10"
#define TITLE_PADDING 6

/* The text colour, the same on focused and unfocused bars. */
static const double text_rgba[4] = {1.0, 1.0, 1.0, 1.0};

struct fw_title {
	struct wlr_scene_tree *tree;
	/* Disabled while there is nothing to show; NULL until first shown. */
	struct wlr_scene_buffer *text;
	struct wlr_scene_buffer *buttons; /* maximize and close, at the right */
	bool buttons_maximized;
	int buttons_height;
	float buttons_scale;
	char *shown;
	int width, height;
	float scale;
};

struct fw_title *fw_titlebar_create(struct wlr_scene_tree *parent) {
	struct fw_title *title = calloc(1, sizeof(*title));
	if (title == NULL) {
		return NULL;
	}
	title->tree = wlr_scene_tree_create(parent);
	if (title->tree == NULL) {
		free(title);
		return NULL;
	}
	return title;
}

void fw_titlebar_destroy(struct fw_title *title) {
	if (title == NULL) {
		return;
	}
	/* The text and button nodes go with the tree. */
	wlr_scene_node_destroy(&title->tree->node);
	free(title->shown);
	free(title);
}

void fw_titlebar_set_enabled(struct fw_title *title, bool enabled) {
	wlr_scene_node_set_enabled(&title->tree->node, enabled);
}

/*
 * Lays text out on one line, in the bar's logical width less padding,
 * ellipsized at the end; the layout is for a cairo context at scale.
 */
static PangoLayout *layout_text(cairo_t *cr, const char *text, int width) {
	PangoLayout *layout = pango_cairo_create_layout(cr);
	if (layout == NULL) {
		return NULL;
	}
	PangoFontDescription *font = pango_font_description_from_string(TITLE_FONT);
	pango_layout_set_font_description(layout, font);
	pango_font_description_free(font);
	pango_layout_set_single_paragraph_mode(layout, TRUE);
	pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
	pango_layout_set_width(layout, width * PANGO_SCALE);
	pango_layout_set_text(layout, text, -1);
	return layout;
}

/* The text drawn at scale into an image of the logical height; NULL on
 * failure or when nothing would show. */
static struct wlr_buffer *draw_text(const char *text, int width, int height,
		float scale, int *logical_width) {
	/* A scratch context to measure on before the image's size is known. */
	cairo_surface_t *scratch =
			cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *cr = cairo_create(scratch);
	cairo_scale(cr, scale, scale);
	PangoLayout *layout = layout_text(cr, text, width);
	cairo_destroy(cr);
	cairo_surface_destroy(scratch);
	if (layout == NULL) {
		return NULL;
	}
	int text_width, text_height;
	pango_layout_get_pixel_size(layout, &text_width, &text_height);
	g_object_unref(layout);
	if (text_width <= 0) {
		return NULL;
	}
	if (text_width > width) {
		text_width = width;
	}

	int buffer_width = (int)ceil(text_width * scale);
	int buffer_height = (int)ceil(height * scale);
	cairo_surface_t *image = cairo_image_surface_create(
			CAIRO_FORMAT_ARGB32, buffer_width, buffer_height);
	cr = cairo_create(image);
	/* Greyscale antialiasing: the text is blended over the bar later. */
	cairo_font_options_t *options = cairo_font_options_create();
	cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT);
	cairo_set_font_options(cr, options);
	cairo_font_options_destroy(options);
	cairo_scale(cr, scale, scale);
	layout = layout_text(cr, text, width);
	struct wlr_buffer *buffer = NULL;
	if (layout != NULL) {
		cairo_set_source_rgba(
				cr, text_rgba[0], text_rgba[1], text_rgba[2], text_rgba[3]);
		cairo_move_to(cr, 0, (height - text_height) / 2.0);
		pango_cairo_show_layout(cr, layout);
		g_object_unref(layout);
		buffer = fw_cairo_buffer_create(image);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(image);
	*logical_width = text_width;
	return buffer;
}

/*
 * The maximize and close buttons, side by side, each a height x height box:
 * a square (two overlapping ones for a maximized window) and a cross,
 * drawn in the text's colour over the bar.
 */
static struct wlr_buffer *draw_buttons(
		int height, float scale, bool maximized) {
	int size = (int)ceil(height * scale);
	cairo_surface_t *image =
			cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 2 * size, size);
	cairo_t *cr = cairo_create(image);
	cairo_scale(cr, scale, scale);
	cairo_set_source_rgba(
			cr, text_rgba[0], text_rgba[1], text_rgba[2], text_rgba[3]);
	cairo_set_line_width(cr, 1.0);
	double inset = height * 0.3, side = height - 2 * inset;
	if (maximized) {
		double small = side * 0.75;
		cairo_rectangle(cr, inset + side - small + 0.5, inset + 0.5, small - 1,
				small - 1);
		cairo_rectangle(cr, inset + 0.5, inset + side - small + 0.5, small - 1,
				small - 1);
	} else {
		cairo_rectangle(cr, inset + 0.5, inset + 0.5, side - 1, side - 1);
	}
	cairo_stroke(cr);
	cairo_set_line_width(cr, 1.5);
	cairo_move_to(cr, height + inset, inset);
	cairo_line_to(cr, height + inset + side, inset + side);
	cairo_move_to(cr, height + inset + side, inset);
	cairo_line_to(cr, height + inset, inset + side);
	cairo_stroke(cr);
	cairo_destroy(cr);
	struct wlr_buffer *buffer = fw_cairo_buffer_create(image);
	cairo_surface_destroy(image);
	return buffer;
}

/*
 * Shows buffer in *node, made under tree the first time; the scene holds
 * its own lock on the buffer, so the caller's goes. False on failure.
 */
static bool show_buffer(struct wlr_scene_tree *tree,
		struct wlr_scene_buffer **node, struct wlr_buffer *buffer) {
	if (*node == NULL) {
		*node = wlr_scene_buffer_create(tree, buffer);
	} else {
		wlr_scene_buffer_set_buffer(*node, buffer);
		wlr_scene_node_set_enabled(&(*node)->node, true);
	}
	wlr_buffer_drop(buffer);
	return *node != NULL;
}

static void update_buttons(struct fw_title *title, int width, int height,
		float scale, bool maximized) {
	if (title->buttons == NULL || title->buttons_height != height ||
			title->buttons_scale != scale ||
			title->buttons_maximized != maximized) {
		struct wlr_buffer *buffer = draw_buttons(height, scale, maximized);
		if (buffer == NULL) {
			return;
		}
		if (!show_buffer(title->tree, &title->buttons, buffer)) {
			return;
		}
		wlr_scene_buffer_set_dest_size(title->buttons, 2 * height, height);
		title->buttons_height = height;
		title->buttons_scale = scale;
		title->buttons_maximized = maximized;
	}
	wlr_scene_node_set_position(&title->buttons->node, width - 2 * height, 0);
}

void fw_titlebar_update(struct fw_title *title, const char *text, int x, int y,
		int width, int height, float scale, bool maximized) {
	wlr_scene_node_set_position(&title->tree->node, x, y);
	update_buttons(title, width, height, scale, maximized);
	if (text == NULL) {
		text = "";
	}
	/* The text stops short of the buttons. */
	int avail = width - 2 * TITLE_PADDING - 2 * height;
	if (title->shown != NULL && strcmp(title->shown, text) == 0 &&
			title->width == avail && title->height == height &&
			title->scale == scale) {
		return;
	}
	char *shown = strdup(text);
	if (shown == NULL) {
		return;
	}
	free(title->shown);
	title->shown = shown;
	title->width = avail;
	title->height = height;
	title->scale = scale;

	struct wlr_buffer *buffer = NULL;
	int logical_width = 0;
	if (text[0] != '\0' && avail > 0 && height > 0) {
		buffer = draw_text(text, avail, height, scale, &logical_width);
	}
	if (buffer == NULL) {
		if (title->text != NULL) {
			/* Lets go of the old image too. */
			wlr_scene_buffer_set_buffer(title->text, NULL);
			wlr_scene_node_set_enabled(&title->text->node, false);
		}
		return;
	}
	if (!show_buffer(title->tree, &title->text, buffer)) {
		wlr_log(WLR_ERROR, "Cannot add a window title to the scene");
		return;
	}
	wlr_scene_buffer_set_dest_size(title->text, logical_width, height);
	wlr_scene_node_set_position(&title->text->node, TITLE_PADDING, 0);
}

void fw_titlebar_finish_fonts(void) {
	/* pango's font map, cairo's font cache and fontconfig's configuration
	 * are process-wide and live until released. */
	pango_cairo_font_map_set_default(NULL);
	cairo_debug_reset_static_data();
	FcFini();
}
