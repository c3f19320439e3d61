#ifndef FAIRWAY_SCHEDULER_GATE_CONNECTION_H
#define FAIRWAY_SCHEDULER_GATE_CONNECTION_H

#include "scheduler/gate/gate_internal.h"
#include <stddef.h>

/*
 * One gated client: its socket, its two queues, and the pumps between them
 * and libwayland's end (transport/transport.h). For the gate's own files only.
 */

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
/* Disconnects the clients that had to go while libwayland was busy. */
void connection_drop_pending(struct gate *gate);

/*
 * Serves libwayland whole queued requests, at most max_bytes and
 * max_requests, as the gate's batch: the transport has libwayland read and
 * run them before this returns. Returns how many requests it was served
 * (the batch is then ANSWERING), 0 if none was queued, or -1 if the
 * client is gone.
 */
int connection_forward(
		struct gate_connection *conn, size_t max_bytes, size_t max_requests);

/*
 * libwayland is about to run the next request of this client's batch.
 * When the batch leaves the client waiting, the first answers its requests
 * produce are sent at once rather than after the batch, so that the client
 * gets on with its work while the rest is served (bench/README.md has what
 * that is worth to a client that commits buffers as they are released).
 */
void connection_reach_request(struct gate_connection *conn);
/*
 * libwayland queued an event for the client being served: with a
 * transport that leaves events in a socket, it is read often enough that
 * libwayland never finds that socket full.
 */
void connection_note_event(struct gate_connection *conn);

/*
 * The client has something for the gate's next flush_clients to send:
 * libwayland queued an event for it, or drained a socket that may have refused
 * a flush.
 */
void connection_mark_unflushed(struct gate_connection *conn);

/* libwayland was asked to flush: the client's events go on now. */
void connection_collect_events(struct gate_connection *conn);

/*
 * After a batch: a client that hung up or failed is disconnected once
 * everything it sent has been served. Returns false if it is gone.
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
