#ifndef FAIRWAY_SCHEDULER_GATE_TRANSPORT_CHOOSE_H
#define FAIRWAY_SCHEDULER_GATE_TRANSPORT_CHOOSE_H

#include "scheduler/gate/gate.h"
#include "scheduler/transport/transport.h"

/*
 * Which transport (transport/transport.h) the gate uses, decided once, in
 * gate_create, before any client connects, and logged with the reason.
 *
 * The memory transport works only where libwayland's calls reach the
 * executable's shim, which nothing but trying can tell: so it is tried,
 * with a real client. A socketpair is given to libwayland as any client's
 * would be, a wl_display.sync is put in its queue and released, and the
 * memory transport must see libwayland register the end, serve libwayland
 * the sync from memory, and get the wl_callback.done libwayland sends
 * back. That client exists only for the probe (listeners of
 * wl_display_add_client_created_listener see it come and go).
 *
 * GATE_TRANSPORT_AUTO takes memory when the probe passes and socketpair,
 * with a warning, when it fails; clients are served either way.
 * GATE_TRANSPORT_MEMORY where the probe fails returns NULL, with an error
 * that says what failed. GATE_TRANSPORT_SOCKETPAIR probes nothing.
 */
const struct gate_transport *gate_transport_choose(struct wl_display *display,
		enum gate_transport_choice choice,
		struct wl_client *(*create_client)(struct wl_display *, int));

#endif
