#ifndef FAIRWAY_COMPOSITOR_SCHED_RATINGS_X11_H
#define FAIRWAY_COMPOSITOR_SCHED_RATINGS_X11_H

#include <stdbool.h>

struct fw_server;
struct fw_ratings_x11;
struct wlr_xwayland_surface;

/*
 * What X clients draw, counted in frames: the knee for X clients.
 * Xwayland commits an X window's surface only once per frame callback,
 * so its commits never show an X client that draws faster than frames
 * are presented. fairway's own X connection to Xwayland follows each
 * mapped X window with the X DAMAGE extension instead, and reports each
 * burst of drawing (ratings_x11.c says what one is) as one frame
 * drawn. Nothing here ever waits on the X server: Xwayland may itself be
 * waiting on fairway.
 *
 * Without Xwayland, without DAMAGE, or once the connection is lost it
 * logs once and counts nothing: the windows' commits count, as before.
 */

/* xsurface drew a frame. */
typedef void (*fw_ratings_x11_drawn_func)(
		struct wlr_xwayland_surface *xsurface, void *data);

/* NULL without memory, or when fairway runs without Xwayland. */
struct fw_ratings_x11 *fw_ratings_x11_create(
		struct fw_server *server, fw_ratings_x11_drawn_func drawn, void *data);
/* Accepts NULL. */
void fw_ratings_x11_destroy(struct fw_ratings_x11 *xdamage);
/*
 * Whether xsurface's drawing is being counted, so that its surface's
 * commits must not be. Accepts a NULL xdamage.
 */
bool fw_ratings_x11_counts(
		struct fw_ratings_x11 *xdamage, struct wlr_xwayland_surface *xsurface);

#endif
