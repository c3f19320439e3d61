#ifndef FAIRWAY_SCHEDULER_GATE_GATE_H
#define FAIRWAY_SCHEDULER_GATE_GATE_H

#include "scheduler/gate/policy.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-server-core.h>

struct gate_trace;

/*
 * The dispatch gate. libwayland reads a client's socket whenever epoll says
 * it is readable and dispatches everything it got, with no notion of time
 * or priority. So fairway owns every client connection instead: the
 * client's socket is read into a queue here, and libwayland is fed whole
 * messages in batches when the policy gives that client its turn, through
 * a transport (transport/transport.h). Events flow back to the client as soon
 * as libwayland writes them, and, for a client that waits on them, between the
 * requests of its batch.
 *
 * docs/architecture.md follows one batch through all of it.
 */
struct gate;
/* One gated client. Valid until its wl_client is destroyed. */
struct gate_connection;

/* How libwayland is fed (transport/transport.h, transport_choose.h). */
enum gate_transport_choice {
	/* From memory where libwayland's calls reach the gate, else through
	 * a socketpair, with a warning. */
	GATE_TRANSPORT_AUTO,
	/* From memory, or gate_create fails. */
	GATE_TRANSPORT_MEMORY,
	/* Through a socketpair, with public libwayland API only. */
	GATE_TRANSPORT_SOCKETPAIR,
};

/* fairway's time slice; the longest slice is three of them (policy.h). */
#define GATE_DEFAULT_INTERVAL_NS (2 * SCHED_NS_PER_MS)

struct gate_config {
	struct sched_params sched;
	enum gate_transport_choice transport;
	/* Queued request bytes at which we stop reading a client's socket. */
	size_t request_cap;
	/* Queued event bytes at which a client that does not read is dropped. */
	size_t event_backlog_cap;
	/* What one batch should cost, so that a batch stays well under a slice. */
	int64_t batch_target_ns;
	/* The same when no other client is ready. */
	int64_t lone_batch_target_ns;
	size_t batch_max_bytes;
	size_t lone_batch_max_bytes;
	/* A client holding more objects than this gets a protocol error. */
	uint32_t max_client_objects;
	/* Clients connected at once; more are refused (0: from the fd limit). */
	size_t max_clients;
	/*
	 * Event and request bytes all clients may have queued together: past
	 * it, the client with the most is dropped (limits.h).
	 */
	size_t total_queued_cap;
	/* How libwayland clients are made; the compositor may need the real
	 * wl_client_create when it wraps that symbol. */
	struct wl_client *(*create_client)(struct wl_display *display, int fd);
};

void gate_config_default(struct gate_config *config);

/*
 * Picks the transport (logged, with the reason) and gets ready to gate
 * clients. NULL when config->transport is GATE_TRANSPORT_MEMORY and
 * libwayland cannot be served from memory here, with the reason logged.
 */
struct gate *gate_create(
		struct wl_display *display, const struct gate_config *config);
/* Disconnects every gated client. Accepts NULL. */
void gate_destroy(struct gate *gate);

/* "memory" or "socketpair": the transport gate_create chose. */
const char *gate_transport_name(const struct gate *gate);

/* Listens on $XDG_RUNTIME_DIR/name, or the first free wayland-N. */
bool gate_listen(struct gate *gate, const char *name);
const char *gate_socket_name(const struct gate *gate);

/*
 * Gates a socket fairway made itself (one end of a socketpair whose other
 * end it handed to a process it started), taking ownership of fd even on
 * failure. SO_PEERCRED names fairway there, so the client's process is
 * pinned from the writer of the first bytes instead (process/peer.h).
 */
struct wl_client *gate_adopt(struct gate *gate, int fd);
/*
 * Gates a client someone else accepted on a listening socket of its own
 * (a security context's, in wlroots), taking ownership of fd even on
 * failure: it is held to the same caps, and its peer pinned from the
 * socket, as a client of the gate's own socket.
 */
struct wl_client *gate_adopt_accepted(struct gate *gate, int fd);

/*
 * One turn of fairway's run loop: serve the batch the policy chooses, send
 * the events that answer it, then let input, timers, output frames and the
 * clients' sockets run once, waiting only when no client has work queued.
 */
void gate_iterate(struct gate *gate);

/* Traces every client's messages from now on; NULL stops. */
void gate_set_trace(struct gate *gate, struct gate_trace *trace);
/* New time slices for every client, at once (a configuration reload). */
void gate_set_sched_params(
		struct gate *gate, const struct sched_params *params);
/* Input went to this client: the policy's input boost. */
void gate_note_input(struct gate *gate, struct wl_client *client);
/*
 * A client's priority, Xorg's client->priority: in [SCHED_MIN_PRIORITY,
 * SCHED_MAX_PRIORITY] (clamped), 0 for a new client. A ready client with
 * a higher one is always served first, before the smart priorities are
 * compared (policy.h). False if the client is not gated.
 */
bool gate_set_client_priority(
		struct gate *gate, struct wl_client *client, int priority);

/*
 * The gated clients: what the stats, a live view of them, or a protocol
 * that lets the user steer them, need. client_stats.h reads one whole.
 */

/* The gate's record of a client, or NULL if it is not gated. */
struct gate_connection *gate_connection_from_client(struct wl_client *client);
struct wl_client *gate_connection_get_client(
		const struct gate_connection *conn);
/*
 * The client's process, as pinned (process/peer.h): what hints and rules may
 * name. False while it is not known yet (a socket fairway made, before its
 * first bytes); *pid 0 when it could not be pinned. Either may be NULL.
 */
bool gate_connection_get_process(
		const struct gate_connection *conn, pid_t *pid, uid_t *uid);
/* A pidfd of that process for the caller to keep, or -1. */
int gate_connection_dup_pidfd(const struct gate_connection *conn);
/* What serving it has cost so far, as the policy charged it. */
int64_t gate_connection_service_ns(const struct gate_connection *conn);

size_t gate_connection_count(const struct gate *gate);
/* Calls func for each gated client, oldest first, until it says stop. */
void gate_for_each_connection(struct gate *gate,
		enum wl_iterator_result (*func)(
				struct gate_connection *conn, void *data),
		void *data);
/* Notifies listener of every client gated from now on; data: the
 * gate_connection, its wl_client made. */
void gate_add_new_connection_listener(
		struct gate *gate, struct wl_listener *listener);
/*
 * Notifies listener as conn goes, from its wl_client's destroy signal
 * (gate_connection_from_client no longer finds it); data: conn, readable
 * until the listener returns.
 */
void gate_connection_add_destroy_listener(
		struct gate_connection *conn, struct wl_listener *listener);

#endif
