#ifndef FAIRWAY_SCHEDULER_GATE_GATE_INTERNAL_H
#define FAIRWAY_SCHEDULER_GATE_GATE_INTERNAL_H

/*
 * The gate's own structures, for scheduler/'s .c files and the gate's
 * tests only: everyone else goes through gate.h and client_stats.h.
 */

#include "scheduler/gate/client_stats.h"
#include "scheduler/gate/gate.h"
#include "scheduler/gate/policy.h"
#include "scheduler/gate/socket.h"
#include "scheduler/process/peer.h"
#include "scheduler/transport/transport.h"
#include "scheduler/wire/stream.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-server-core.h>

struct gate_trace;

/*
 * Where a connection is going. It only ever moves down this list.
 *
 *   OPEN       its socket is read as its queue has room;
 *   HUNG_UP    the client closed its side: what it sent is served, then
 *              it is disconnected;
 *   FAILED     it broke the protocol (failure says how): what it sent
 *              before is served, then it gets a wl_display.error and is
 *              disconnected;
 *   DROPPING   it must go, and could not be dropped on the spot (gate.drops):
 *              gate_iterate disconnects it before the loop next waits, and
 *              what libwayland sends it meanwhile is thrown away.
 */
enum connection_state {
	CONNECTION_OPEN,
	CONNECTION_HUNG_UP,
	CONNECTION_FAILED,
	CONNECTION_DROPPING,
};

struct gate_connection {
	struct gate *gate;
	struct wl_client *client;
	enum connection_state state;
	int outer_fd; /* the client's socket */
	/* CONNECTION_FAILED: why (allocated then; NULL if that failed). */
	char *failure;
	struct wl_list drop_link; /* gate.drops, while CONNECTION_DROPPING */

	struct wl_event_source *outer_source;
	uint32_t outer_mask;
	/* Its queue is full and its socket goes unread: stats.throttled
	 * counts each time it becomes so. */
	bool throttled;
	/* Its peer is pinned from its first bytes' writer (peer below). */
	bool pin_writer;

	/* libwayland's end (transport/transport.h), and the queues it moves. */
	struct wayland_end *end;
	struct wayland_end_owner owner;
	struct stream requests; /* client -> libwayland */
	struct stream events; /* libwayland -> client */
	/* Whole, checked messages at the head of requests: it is ready
	 * while there are any. */
	size_t validated;
	size_t validated_messages; /* how many messages those are */
	uint64_t events_counted_to; /* stream offset of the next event to count */

	/* Who connected (SO_PEERCRED, or the first writer): for logs and stats. */
	pid_t pid;
	uid_t uid;
	uint32_t creations_past_cap;
	/*
	 * The process its hints may reach, pinned at accept (process/peer.h); for a
	 * socket fairway made itself, from its first bytes' writer, which
	 * pin_writer waits for.
	 */
	struct peer peer;

	struct sched_entity entity;
	struct gate_connection_stats stats;
	/* What it counts for in gate.queued_fds and gate.queued_bytes. */
	size_t accounted_fds, accounted_bytes;

	/* Emitted as it goes, before its wl_client does. */
	struct wl_signal destroy_signal;

	struct wl_listener client_destroy;
	struct wl_listener resource_created;
	struct wl_list link; /* gate.connections */
	/* In gate.unflushed: libwayland queued events for it, or its socket
	 * was drained, since its last flush (empty list when not). */
	struct wl_list unflushed_link;
};

/*
 * The batch in hand: at most one at a time, a client's whole messages that
 * libwayland reads and runs before gate_iterate goes on.
 *
 *   NONE       between batches, or its client went;
 *   SERVING    inside the transport's serve: libwayland reads the
 *              released bytes (conn->owner.released) and runs them; the
 *              protocol logger sees each request start;
 *   ANSWERING  done and charged; the idle work it scheduled runs, then its
 *              client's answers are sent, and the batch is over.
 *
 * answer_early: the batch takes all its client has sent, so the client
 * most likely waits on its answers, and none has gone out early yet
 * (connection_reach_request).
 */
enum gate_batch_phase {
	GATE_BATCH_NONE,
	GATE_BATCH_SERVING,
	GATE_BATCH_ANSWERING,
};

struct gate_batch {
	struct gate_connection *conn; /* NULL exactly when phase is NONE */
	enum gate_batch_phase phase;
	bool answer_early;
	/* Events libwayland queued for conn while SERVING (protocol logger). */
	unsigned events;
	/* events at the last request boundary: none since, nothing to send. */
	unsigned events_seen;
};

struct gate {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct gate_config config;
	const struct gate_transport *transport;
	struct sched_policy policy;
	struct gate_socket socket;
	struct wl_event_source *socket_source;
	struct wl_event_source *accept_retry;
	struct wl_list connections; /* gate_connection.link */
	/* Clients to disconnect once libwayland is out of its call. */
	struct wl_list drops; /* gate_connection.drop_link */
	struct gate_batch batch;
	/* When every client's queued events last went out. */
	int64_t flushed_ns;
	/*
	 * Who has events queued in libwayland, as the protocol logger saw
	 * them queued, and (socketpair transport) whose flush a full socket
	 * may have stopped: flushing these alone costs nothing per idle
	 * client.
	 */
	struct wl_list unflushed; /* gate_connection.unflushed_link */
	/* The clients libwayland has that the gate does not (ungated.h). */
	struct wl_list ungated; /* gate_ungated.link */
	struct wl_listener client_created, ungated_display_destroy;
	/* Set while the gate makes a client of its own. */
	bool creating_client;
	/* One of those could not be kept track of (out of memory)... */
	bool ungated_untracked;
	/* ...and may have events: the next flush is libwayland's walk over
	 * every client. Set too where a full socket could not be watched. */
	bool ungated_lost;
	/* Sees every message libwayland runs or sends (protocol_logger.h). */
	struct wl_protocol_logger *protocol_logger;
	struct wl_listener display_destroy;
	/* --trace: NULL unless asked for; set with gate_set_trace. */
	struct gate_trace *trace;
	/* What every client has queued, both ways (limits.h). */
	size_t queued_fds, queued_bytes;
	size_t fd_budget; /* queued fds all clients may hold together */
	size_t connection_count;

	/* A client was gated: data is its gate_connection. */
	struct wl_signal new_connection_signal;
};

#endif
