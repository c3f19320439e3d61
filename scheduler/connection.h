#ifndef FAIRWAY_SCHEDULER_CONNECTION_H
#define FAIRWAY_SCHEDULER_CONNECTION_H

#include "scheduler/gate.h"
#include <stddef.h>

/* One gated client: its two sockets, its queues, and the pumps between. */

/* Takes ownership of outer_fd, even on failure. */
struct gate_connection *connection_create(struct gate *gate, int outer_fd);

/*
 * Forwards whole queued requests to libwayland: at most max_bytes and
 * max_requests. Returns how many requests went, or -1 if the connection
 * failed and is gone.
 */
int connection_forward(
		struct gate_connection *conn, size_t max_bytes, size_t max_requests);

/* Whether libwayland has read everything forwarded so far. */
bool connection_drained(struct gate_connection *conn);

/*
 * Passes on at once what libwayland answered a batch, rather than at the
 * next turn of the loop: a client waiting for a reply (a buffer release, a
 * sync's done) goes on sooner. Returns false if the client is gone.
 */
bool connection_deliver_events(struct gate_connection *conn);

/*
 * After libwayland has read a batch: a client that hung up is disconnected
 * once everything it sent has been served. Returns false if it is gone.
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
