#ifndef FAIRWAY_COMPOSITOR_OUTPUT_SHM_H
#define FAIRWAY_COMPOSITOR_OUTPUT_SHM_H

#include <stdbool.h>

struct wl_display;
struct wlr_renderer;

/*
 * wl_shm (version 2) in the renderer's formats, with buffers wlroots takes
 * as its own (wlr_buffer_try_from_resource), in place of wlroots' wlr_shm.
 *
 * Why fairway's own: wlr_shm installs a SIGBUS handler when a data access
 * opens and puts the old one back when it closes, two system calls, and
 * the pixman renderer opens one at every commit, as it makes a texture of
 * each committed buffer. Where system calls are dear, as on a virtual
 * machine, that was much of a lone commit flooder's cost (bench/README.md,
 * "fairway's own wl_shm"). Here the handler is installed once, when the
 * global is made, and opening or closing an access is a list operation.
 *
 * Behaviour kept from wlr_shm: a pool's mapping outlives a resize while a
 * buffer made from it lives, so a pointer taken in an access stays valid
 * as long as the buffer is locked (the paint worker reads through such
 * pointers). A read that faults inside an access (the client truncated its
 * pool) gets zero pages mapped over the pool and carries on; unlike
 * wlr_shm, whose client is never told, the access's end raises
 * wl_shm.invalid_fd on the buffer, as libwayland's wl_shm did. The same
 * handler guards the paint's reads outside any access (shm_guard.h); any
 * other SIGBUS goes to the handler found at creation.
 *
 * Destroyed with the display. False, logged, if it cannot be made.
 */
bool fw_shm_create(struct wl_display *display, struct wlr_renderer *renderer);

#endif
