#ifndef FAIRWAY_SCHEDULER_CONNECTION_H
#define FAIRWAY_SCHEDULER_CONNECTION_H

#include "scheduler/gate.h"
#include <stddef.h>
#include <sys/socket.h>

/* One gated client: its two sockets, its queues, and the pumps between. */

/*
 * Takes ownership of outer_fd, even on failure. accepted: a client that
 * connected to fairway's socket, its process pinned now; else a socket
 * fairway made itself, pinned from the writer of its first bytes.
 */
struct gate_connection *connection_create(
		struct gate *gate, int outer_fd, bool accepted);

/*
 * Drops the client once libwayland is out of the call it is in: it may be
 * in the middle of sending to this very client. gate_iterate drops it
 * before it next waits.
 */
void connection_drop_later(struct gate_connection *conn);

/*
 * Serves libwayland whole queued requests, at most max_bytes and
 * max_requests: its read callback runs, reads them and dispatches them
 * before this returns. Returns how many requests it was served, or -1 if
 * the client is gone.
 */
int connection_forward(
		struct gate_connection *conn, size_t max_bytes, size_t max_requests);

/*
 * libwayland is about to run the next request of this client's batch.
 * When the batch leaves the client waiting, the first answers its requests
 * produce are sent at once rather than after the batch, so that the client
 * gets on with its work while the rest is served: a lone client that
 * commits buffers as they are released (fairway-plaid --mode commit) went
 * from 0.94x to 1.15x what it gets with --scheduler off (bench/README.md).
 */
void connection_reach_request(struct gate_connection *conn);

/* libwayland's recvmsg on its end: the batch it may read, if any. */
ssize_t connection_give_requests(
		struct gate_connection *conn, struct msghdr *msg);
/* libwayland's sendmsg on its end: events, sent on to the client. */
ssize_t connection_take_events(
		struct gate_connection *conn, const struct msghdr *msg);

/* Disconnects the clients that had to go while libwayland was busy. */
void connection_drop_pending(struct gate *gate);

/*
 * After a batch: a client that hung up is disconnected once everything it
 * sent has been served. Returns false if it is gone.
 */
bool connection_settle(struct gate_connection *conn);

/*
 * Disconnects a client that broke the protocol: it gets a wl_display.error
 * it can read where possible, the reason is logged, and nobody else is
 * touched. The connection is freed.
 */
void connection_fail(struct gate_connection *conn, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));

#endif
