#ifndef FAIRWAY_COMPOSITOR_SHELL_CAIRO_BUFFER_H
#define FAIRWAY_COMPOSITOR_SHELL_CAIRO_BUFFER_H

#include <cairo.h>

struct wlr_buffer;

/*
 * A wlr_buffer over a cairo ARGB32 image surface, so that what fairway
 * draws with cairo can be put in the scene as a wlr_scene_buffer. Its
 * pixels are read through data pointer access, which both the pixman and
 * the GLES2 renderer import, and which render.c copies from.
 *
 * Takes a reference to surface; the buffer's creator drops the buffer
 * (wlr_buffer_drop) once it has handed it on. NULL on failure.
 */
struct wlr_buffer *fw_cairo_buffer_create(cairo_surface_t *surface);

#endif
