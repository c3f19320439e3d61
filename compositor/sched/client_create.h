#ifndef FAIRWAY_COMPOSITOR_SCHED_CLIENT_CREATE_H
#define FAIRWAY_COMPOSITOR_SCHED_CLIENT_CREATE_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct gate;
struct peer;

/* libwayland's own wl_client_create, which fairway's definition hides. */
struct wl_client *fw_client_create_real(struct wl_display *display, int fd);

/*
 * From now on, clients that wlroots creates by hand (XWayland's) are
 * gated; NULL hands them straight to libwayland again.
 */
void fw_client_create_set_gate(struct gate *gate);

/*
 * True while the client being created is one wlroots made by hand, on a
 * socketpair of fairway's (XWayland's): for a client_created listener,
 * which runs within the creation.
 */
bool fw_client_create_by_hand(void);

/*
 * For a client_created listener: the process that connected the client
 * being created, as libwayland accepted it (the gate off), pinned by a
 * pidfd for the caller to keep. False, with peer not pinned, for a client
 * made by hand or gated, or one whose peer could not be pinned (gone).
 */
bool fw_client_create_take_peer(struct peer *peer);

#endif
