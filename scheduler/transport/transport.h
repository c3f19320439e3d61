#ifndef FAIRWAY_SCHEDULER_TRANSPORT_TRANSPORT_H
#define FAIRWAY_SCHEDULER_TRANSPORT_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <wayland-server-core.h>

struct stream;

/*
 * How a gated client's bytes reach libwayland and come back: the gate's
 * one seam with libwayland's internals.
 *
 * The gate hands each client to libwayland with wl_client_create on one
 * end of a socketpair it made, "libwayland's end". A transport attaches a
 * wayland_end to that socketpair before the client is made, moves the
 * requests the gate released to libwayland and the events libwayland
 * wrote back to the gate's queues, and detaches when the client goes.
 * The gate's connection (gate/connection.c) sees only this interface; a
 * transport sees only a wayland_end_owner, never the connection.
 *
 * Two transports:
 *
 * - memory (transport_memory.c): no byte crosses the socketpair. The
 *   executable exports its own recvmsg, sendmsg and wl_event_loop_add_fd
 *   (transport_memory_shim.c), which libwayland-server calls through its
 *   PLT: its reads on a gated end are given the released requests from
 *   memory, its writes are appended to the gate's event queue, and the
 *   gate learns its read callback and runs it on the client's turn. A
 *   round trip costs what it costs without the gate.
 * - socketpair (transport_socketpair.c): public libwayland API only. The
 *   gate writes the released requests into the socketpair, lets the
 *   event loop run libwayland's read of them, and reads libwayland's
 *   events back out of it: a sendmsg, a recvmsg and an event loop wakeup
 *   more each way. It works wherever libwayland does: in a compositor
 *   loaded with dlopen, with a libwayland linked -Bsymbolic-functions, or
 *   statically.
 *
 * gate_create picks one (gate/transport_choose.h).
 */

struct wayland_end_owner;

struct wayland_end_owner_impl {
	/* libwayland took `bytes` from the head of owner->requests. */
	void (*requests_taken)(struct wayland_end_owner *owner, size_t bytes);
	/* Bytes were appended to owner->events. */
	void (*events_added)(struct wayland_end_owner *owner);
	/*
	 * What libwayland wrote into its socket was taken out (socketpair
	 * transport only): a flush of its that found the socket full can go
	 * on now.
	 */
	void (*socket_drained)(struct wayland_end_owner *owner);
};

/*
 * The gate's side of one end, embedded in whatever owns the queues (the
 * connection, or gate/transport_choose.c's probe). The end reads and changes
 * these fields; the owner hears of each change through impl.
 */
struct wayland_end_owner {
	const struct wayland_end_owner_impl *impl;
	/* Whole requests, libwayland's to take from the head... */
	struct stream *requests;
	/* ...up to this many bytes; the end lowers it as they go. */
	size_t released;
	/* What libwayland sends the client is appended here... */
	struct stream *events;
	/* ...or thrown away, once the client is going anyway. */
	bool discard_events;
};

enum wayland_end_served {
	/* libwayland read every released byte and ran what it read. */
	WAYLAND_END_SERVED,
	/* It stopped taking bytes with some still released. */
	WAYLAND_END_STALLED,
	/* The client was destroyed meanwhile, with its end and owner. */
	WAYLAND_END_GONE,
};

struct wayland_end;

struct gate_transport {
	const char *name;
	/*
	 * Makes a socketpair and attaches an end to it for owner; *fd is
	 * libwayland's side, for wl_client_create, which then owns it. NULL
	 * with the reason logged on failure.
	 */
	struct wayland_end *(*attach)(struct wl_event_loop *loop,
			struct wayland_end_owner *owner, int *fd);
	/*
	 * wl_client_create returned: whether this end can serve the client
	 * it made (the memory transport needs to have seen libwayland
	 * register it).
	 */
	bool (*attached)(struct wayland_end *end);
	/*
	 * Before libwayland closes its side: the end lets go of the
	 * socketpair and is freed. Called from the client's destroy
	 * listener, possibly in the middle of serve.
	 */
	void (*detach)(struct wayland_end *end);
	/*
	 * Lets libwayland read the released requests and run them, returning
	 * once it has. Whatever libwayland runs meanwhile may destroy the
	 * client: after WAYLAND_END_GONE neither the end nor the owner may be
	 * touched.
	 */
	enum wayland_end_served (*serve)(struct wayland_end *end);
	/*
	 * libwayland may have written events (a flush): take them into the
	 * owner's queue now rather than at the next loop turn.
	 */
	void (*collect)(struct wayland_end *end);
};

extern const struct gate_transport gate_transport_memory;
extern const struct gate_transport gate_transport_socketpair;

/*
 * What every end starts with: its transport and its owner. A transport's
 * own end embeds it first.
 */
struct wayland_end {
	const struct gate_transport *transport;
	struct wayland_end_owner *owner;
};

/*
 * For the transports' attach: a zeroed end of `size` bytes for owner and
 * the socketpair it serves (socket(2) flags beyond SOCK_CLOEXEC in
 * flags). NULL, with the reason logged, on failure.
 */
struct wayland_end *wayland_end_create(size_t size,
		const struct gate_transport *transport, struct wayland_end_owner *owner,
		int flags, int pair[2]);
/* An attach that failed after wayland_end_create: closes both, frees end. */
void wayland_end_abandon(struct wayland_end *end, const int pair[2]);

#endif
