#ifndef FAIRWAY_SCHEDULER_GATE_H
#define FAIRWAY_SCHEDULER_GATE_H

#include "scheduler/peer.h"
#include "scheduler/policy.h"
#include "scheduler/socket.h"
#include "scheduler/stream.h"
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
 * client's socket (outer) is read into a queue here, and libwayland gets
 * its own end of a socketpair, fed whole messages in batches when the
 * policy gives that client its turn. Events flow back to the client as
 * soon as libwayland writes them, and, for a client that waits on them,
 * between the requests of its batch (connection_reach_request). Both ways
 * the bytes pass in memory, not through the socketpair (wayland_end.h).
 */

struct gate_config {
	struct sched_params sched;
	/* Queued request bytes at which we stop reading a client's socket. */
	size_t request_cap;
	/* Queued event bytes at which a client that does not read is dropped. */
	size_t event_backlog_cap;
	/* What one batch should cost, so that a batch stays well under a slice. */
	int64_t batch_target_ns;
	/* The same when no other client is ready. */
	int64_t lone_batch_target_ns;
	size_t batch_max_bytes;
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

struct gate_connection_stats {
	uint64_t requests; /* messages forwarded to libwayland */
	uint64_t request_bytes;
	uint64_t events; /* messages libwayland sent the client */
	uint64_t event_bytes; /* bytes forwarded back to the client */
	uint64_t batches;
	uint64_t reads; /* recvmsg calls on the client's socket */
	uint64_t throttled; /* times its socket went unread at the cap */
};

struct gate_connection {
	struct gate *gate;
	struct wl_client *client;
	int outer_fd;
	struct wl_event_source *outer_source;
	uint32_t outer_mask;
	/*
	 * libwayland's end of the socketpair, and the other end, held only so
	 * that libwayland's never hangs up: nothing crosses between them.
	 */
	int wayland_fd, wayland_peer_fd;
	/* libwayland's read callback for this client, run on its turn. */
	wl_event_loop_fd_func_t wayland_read;
	void *wayland_read_data;
	/* Queued request bytes libwayland may read now: its batch. */
	size_t released;
	/* Its batch leaves it waiting, and no answer has gone out early yet
	 * (connection_reach_request). */
	bool answer_early;
	/* It must go, and could not be dropped on the spot: gate.drops. */
	bool dropping;
	struct wl_list drop_link;
	pid_t pid;
	uid_t uid;
	/*
	 * The process its hints may reach, pinned at accept (peer.h); for a
	 * socket fairway made itself, from its first bytes' writer.
	 */
	struct peer peer;
	bool pin_writer;
	/* What it counts for in gate.queued_fds and gate.queued_bytes. */
	size_t accounted_fds, accounted_bytes;

	struct stream requests; /* client -> libwayland */
	struct stream events; /* libwayland -> client */
	uint64_t events_counted_to; /* stream offset of the next message to count */
	size_t validated; /* whole, checked messages at the head */
	/* The client closed its side: serve what it sent, then disconnect. */
	bool hung_up;
	/*
	 * Why the client broke the protocol, if it did: like libwayland, the
	 * whole requests before the fault are served, then it is disconnected.
	 */
	char failure[160];

	struct sched_entity entity;
	/* Its queue is full: its socket goes unread. */
	bool throttled;

	struct gate_connection_stats stats;
	struct wl_listener client_destroy;
	struct wl_listener resource_created;
	uint32_t creations_past_cap;
	struct wl_list link; /* gate.connections */
};

struct gate {
	struct wl_display *display;
	struct wl_event_loop *loop;
	struct gate_config config;
	struct sched_policy policy;
	struct gate_socket socket;
	struct wl_event_source *socket_source;
	struct wl_event_source *accept_retry;
	struct wl_list connections;
	/* Clients to disconnect once libwayland is out of its call. */
	struct wl_list drops;
	/* When every client's events last went out. */
	int64_t flushed_all_ns;
	/* The client just served, until its answers are sent; NULL if gone. */
	struct gate_connection *answering;
	/* Whose batch libwayland is reading and dispatching right now. */
	struct gate_connection *serving;
	/* Sees every message libwayland runs or sends (protocol_logger.h). */
	struct wl_protocol_logger *protocol_logger;
	struct wl_listener display_destroy;
	/* --trace: NULL unless asked for; set with gate_set_trace. */
	struct gate_trace *trace;
	/* What every client has queued, both ways (limits.h). */
	size_t queued_fds, queued_bytes;
	size_t fd_budget; /* queued fds all clients may hold together */
	size_t connection_count;
};

struct gate *gate_create(
		struct wl_display *display, const struct gate_config *config);
/* Disconnects every gated client. Accepts NULL. */
void gate_destroy(struct gate *gate);

/* Listens on $XDG_RUNTIME_DIR/name, or the first free wayland-N. */
bool gate_listen(struct gate *gate, const char *name);
const char *gate_socket_name(const struct gate *gate);

/*
 * Gates a socket fairway made itself (one end of a socketpair whose other
 * end it handed to a process it started), taking ownership of fd even on
 * failure. SO_PEERCRED names fairway there, so the client's process is
 * pinned from the writer of the first bytes instead (peer.h).
 */
struct wl_client *gate_adopt(struct gate *gate, int fd);

/*
 * One turn of fairway's run loop: serve the batch the policy chooses, send
 * the events that answer it, then let input, timers, output frames and the
 * clients' sockets run once, waiting only when no client has work queued.
 */
void gate_iterate(struct gate *gate);

/* Traces every client's messages from now on; NULL stops. */
void gate_set_trace(struct gate *gate, struct gate_trace *trace);
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
/* Its client priority; 0 for a client that is not gated. */
int gate_client_priority(struct gate *gate, struct wl_client *client);
/* New time slices for every client, at once (a configuration reload). */
void gate_set_sched_params(
		struct gate *gate, const struct sched_params *params);

/* The gate's record of a client, or NULL if it is not gated. */
struct gate_connection *gate_connection_from_client(struct wl_client *client);

#endif
