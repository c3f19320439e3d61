#ifndef FAIRWAY_SCHEDULER_GATE_UNGATED_H
#define FAIRWAY_SCHEDULER_GATE_UNGATED_H

#include <wayland-server-core.h>

struct gate;

/*
 * Clients libwayland serves that the gate does not: Xwayland, which
 * wlroots makes with wl_client_create, or a test's. There are one or two;
 * the protocol logger notes each one libwayland queued events for, and
 * gate_ungated_flush sends just theirs, so that no turn walks every
 * client for them.
 *
 * libwayland's wl_client_flush, unlike its walk (wl_display_flush_clients),
 * does not watch a socket it found full for room, and such a client's
 * socket is its own: the gate watches it itself until the flush gets
 * through.
 */

/*
 * From gate_create on, every client made while gate.creating_client is
 * false is taken for an ungated one.
 */
void gate_ungated_init(struct gate *gate);
/* libwayland queued an event for client, which is not gated. */
void gate_ungated_note(struct gate *gate, struct wl_client *client);
/* Sends the events of those noted since the last flush. */
void gate_ungated_flush(struct gate *gate);
/* Lets go of every ungated client (gate_destroy, or the display's). */
void gate_ungated_finish(struct gate *gate);

#endif
