#include "scheduler/gate/connection.h"
#include "scheduler/gate/limits.h"
#include "scheduler/log.h"
#include "scheduler/sched_clock.h"
#include "scheduler/trace/trace.h"
#include "scheduler/wire/wire.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-protocol.h>

/*
 * Queued fds, like queued bytes, stop the reading until libwayland has
 * taken some: a client creating pools in a loop is slowed, not dropped
 * (limits.h).
 */
#define MAX_QUEUED_FDS LIMITS_MAX_QUEUED_FDS

/*
 * Events libwayland may queue for the client being served before the
 * transport is asked to take them: a batch's events must never fill a
 * socket libwayland writes to (transport/transport_socketpair.c), and 64 of the
 * largest still fit.
 */
#define COLLECT_EVERY_EVENTS 64

static bool requests_full(const struct gate_connection *conn) {
	return stream_len(&conn->requests) >= conn->gate->config.request_cap ||
			stream_fd_count(&conn->requests) >= MAX_QUEUED_FDS;
}

static bool serving(const struct gate_connection *conn) {
	const struct gate_batch *batch = &conn->gate->batch;
	return batch->conn == conn && batch->phase == GATE_BATCH_SERVING;
}

static void update_outer_mask(struct gate_connection *conn) {
	uint32_t mask = 0;
	/*
	 * A full queue is not read (handle_outer), but the socket stays
	 * watched: a flooder fills its queue again after every batch, and
	 * unwatching and watching would cost two epoll_ctl a batch. A full
	 * queue holds whole messages, so the client is ready and the loop
	 * does not wait on epoll anyway.
	 */
	bool open = conn->state == CONNECTION_OPEN;
	bool full = requests_full(conn);
	if (open) {
		mask |= WL_EVENT_READABLE;
		if (full && !conn->throttled) {
			conn->stats.throttled++;
		}
	}
	conn->throttled = open && full;
	if (stream_len(&conn->events) > 0) {
		mask |= WL_EVENT_WRITABLE;
	}
	if (mask != conn->outer_mask) {
		wl_event_source_fd_update(conn->outer_source, mask);
		conn->outer_mask = mask;
	}
	gate_trace_queues(conn->gate->trace, conn->client, conn->pid,
			conn->throttled, mask & WL_EVENT_WRITABLE);
}

static void update_ready(struct gate_connection *conn) {
	bool ready = conn->validated > 0;
	if (ready != conn->entity.ready) {
		sched_entity_set_ready(&conn->gate->policy, &conn->entity, ready);
	}
}

static void disconnect(struct gate_connection *conn) {
	/* The destroy listener frees everything else. */
	wl_client_destroy(conn->client);
}

/* Sends what the client has not taken yet; false on a broken socket. */
static bool send_events(struct gate_connection *conn) {
	size_t len = stream_len(&conn->events);
	if (len == 0) {
		return true;
	}
	ssize_t n = stream_send(&conn->events, conn->outer_fd, len);
	if (n < 0) {
		return false;
	}
	conn->stats.event_bytes += n;
	return true;
}

/*
 * Sends queued events on. False, with the reason logged, when the client
 * must go: its socket broke, or it lets more than the backlog cap pile up.
 */
static bool pass_on_events(struct gate_connection *conn) {
	if (!send_events(conn)) {
		sched_log(SCHED_LOG_DEBUG, "client %d: send: %s", conn->pid,
				strerror(errno));
		return false;
	}
	if (stream_len(&conn->events) > conn->gate->config.event_backlog_cap ||
			stream_fd_count(&conn->events) > LIMITS_MAX_QUEUED_FDS) {
		sched_log(SCHED_LOG_ERROR,
				"client %d does not read its events (%zu bytes and %zu fds "
				"queued), disconnecting it",
				conn->pid, stream_len(&conn->events),
				stream_fd_count(&conn->events));
		return false;
	}
	return true;
}

void connection_drop_later(struct gate_connection *conn) {
	if (conn->state != CONNECTION_DROPPING) {
		conn->state = CONNECTION_DROPPING;
		/* Going anyway: what it would be sent only costs memory. */
		conn->owner.discard_events = true;
		wl_list_insert(conn->gate->drops.prev, &conn->drop_link);
	}
}

/*
 * Brings the limits' totals up to date; a client over them goes at the
 * end of the loop turn, as libwayland may be in a call for it.
 */
static void account(struct gate_connection *conn) {
	struct gate_connection *over = gate_limits_account(conn);
	if (over != NULL) {
		connection_drop_later(over);
	}
}

void connection_drop_pending(struct gate *gate) {
	while (!wl_list_empty(&gate->drops)) {
		struct gate_connection *conn =
				wl_container_of(gate->drops.next, conn, drop_link);
		disconnect(conn);
	}
}

/*
 * Counts (and traces) the events libwayland wrote. A message counts once
 * its header is in: the client may be sent the first part of a message
 * before libwayland writes the rest, and the count must stay on message
 * boundaries all the same (events_counted_to may lie past the data).
 */
static void count_events(struct gate_connection *conn) {
	const struct stream *events = &conn->events;
	if (conn->events_counted_to < events->offset) {
		/* A header split in two went out half: only the count loses
		 * track, until the next message boundary it happens upon. */
		conn->events_counted_to = events->offset;
	}
	const uint8_t *data = stream_data(events);
	size_t len = stream_len(events);
	size_t at = conn->events_counted_to - events->offset;
	while (at + WIRE_HEADER_SIZE <= len) {
		struct wire_header header;
		wire_read_header(data + at, &header);
		if (!wire_size_valid(header.size)) {
			break;
		}
		conn->stats.events++;
		if (conn->gate->trace) {
			gate_trace_message(
					conn->gate->trace, conn->client, conn->pid, true, &header);
		}
		at += header.size;
	}
	conn->events_counted_to = events->offset + at;
}

/* The transport appended libwayland's events: they go out at once. */
static void handle_events_added(struct wayland_end_owner *owner) {
	struct gate_connection *conn = wl_container_of(owner, conn, owner);
	count_events(conn);
	if (!pass_on_events(conn)) {
		connection_drop_later(conn);
	}
	update_outer_mask(conn);
	account(conn);
}

/* libwayland took part of the batch off the queue. */
static void handle_requests_taken(
		struct wayland_end_owner *owner, size_t bytes) {
	struct gate_connection *conn = wl_container_of(owner, conn, owner);
	conn->validated -= bytes;
	account(conn);
}

void connection_mark_unflushed(struct gate_connection *conn) {
	if (wl_list_empty(&conn->unflushed_link)) {
		wl_list_insert(conn->gate->unflushed.prev, &conn->unflushed_link);
	}
}

/*
 * libwayland may hold events a full socket refused: the next flush_clients
 * flushes the client again (a flush with nothing left costs no syscall).
 */
static void handle_socket_drained(struct wayland_end_owner *owner) {
	struct gate_connection *conn = wl_container_of(owner, conn, owner);
	connection_mark_unflushed(conn);
}

static const struct wayland_end_owner_impl owner_impl = {
		.requests_taken = handle_requests_taken,
		.events_added = handle_events_added,
		.socket_drained = handle_socket_drained,
};

bool connection_settle(struct gate_connection *conn) {
	/* A batch still being read keeps its client until it is done. */
	if (conn->validated > 0 || serving(conn)) {
		return true;
	}
	switch (conn->state) {
	case CONNECTION_FAILED:
		connection_fail(
				conn, "%s", conn->failure ? conn->failure : "protocol error");
		return false;
	case CONNECTION_HUNG_UP:
		disconnect(conn);
		return false;
	case CONNECTION_OPEN:
	case CONNECTION_DROPPING:
		break;
	}
	return true;
}

/*
 * Like libwayland, serve the requests that came before the end of the
 * stream; a client that only shut down its writing side still gets the
 * answers.
 */
static void hang_up(struct gate_connection *conn) {
	if (conn->state == CONNECTION_OPEN) {
		sched_log(SCHED_LOG_DEBUG, "client %d hung up", conn->pid);
		conn->state = CONNECTION_HUNG_UP;
	}
	if (!connection_settle(conn)) {
		return;
	}
	update_ready(conn);
	update_outer_mask(conn);
}

/*
 * The client broke the protocol at the end of what was read: it is read no
 * more, what it sent before the fault is served, then it is disconnected.
 */
__attribute__((format(printf, 2, 3))) static void fail_after_serving(
		struct gate_connection *conn, const char *fmt, ...) {
	if (conn->state < CONNECTION_FAILED) {
		va_list args;
		va_start(args, fmt);
		if (vasprintf(&conn->failure, fmt, args) < 0) {
			conn->failure = NULL;
		}
		va_end(args);
		conn->state = CONNECTION_FAILED;
	}
	if (!connection_settle(conn)) {
		return;
	}
	update_ready(conn);
	update_outer_mask(conn);
}

/*
 * Checks the newly read bytes' message sizes. False: the client broke the
 * protocol, and is gone or going once what came before is served.
 */
static bool validate(struct gate_connection *conn) {
	struct wire_scan scan;
	size_t len = stream_len(&conn->requests);
	wire_scan(stream_data(&conn->requests) + conn->validated,
			len - conn->validated, SIZE_MAX, 0, &scan);
	if (conn->gate->trace) {
		gate_trace_messages(conn->gate->trace, conn->client, conn->pid, false,
				stream_data(&conn->requests) + conn->validated, scan.bytes);
	}
	conn->validated += scan.bytes;
	conn->validated_messages += scan.messages;
	if (scan.status == WIRE_BAD_SIZE) {
		fail_after_serving(conn,
				"invalid message size %u (object %u, opcode %u)", scan.bad.size,
				scan.bad.object_id, scan.bad.opcode);
		return false;
	}
	return true;
}

/*
 * A socket fairway made: the kernel named the writer of the first bytes
 * (process/peer.h). Asking stops there, as each read would bring a pidfd.
 */
static void pin_writer(struct gate_connection *conn) {
	struct stream_sender *sender = &conn->requests.sender;
	conn->pin_writer = false;
	peer_pass_credentials(conn->outer_fd, false);
	peer_pin_pid(&conn->peer, sender->pid, sender->uid, sender->pidfd,
			peer_now_ticks());
	sender->pidfd = -1;
	if (conn->peer.pid > 0) {
		conn->pid = conn->peer.pid;
		conn->uid = conn->peer.uid;
	}
	sched_log(SCHED_LOG_DEBUG, "client on fairway's own socket is pid %d%s",
			(int)sender->pid, conn->peer.pid > 0 ? "" : " (not pinned)");
}

static void read_requests(struct gate_connection *conn, int fd) {
	size_t cap = conn->gate->config.request_cap;
	size_t len = stream_len(&conn->requests);
	int eof = 0, fds = 0;
	ssize_t n = 0;
	if (!requests_full(conn)) {
		n = stream_recv(&conn->requests, fd, cap - len,
				MAX_QUEUED_FDS - stream_fd_count(&conn->requests), &eof, &fds);
		conn->stats.reads++;
		if (conn->pin_writer && conn->requests.sender.known) {
			pin_writer(conn);
		}
		account(conn);
	}
	/* Whole messages before any fault below are served first. */
	if (n > 0 && !validate(conn)) {
		return;
	}
	if (fds > STREAM_MAX_FDS_PER_RECV) {
		/* The kernel dropped some: we are out of fds, or it sent more
		 * than a recvmsg can carry. Either way the stream is broken. */
		fail_after_serving(conn, "fds lost in transit (truncated recvmsg)");
		return;
	}
	if (fds > STREAM_MAX_FDS_PER_MSG) {
		fail_after_serving(conn, "%d fds in one message, at most %d", fds,
				STREAM_MAX_FDS_PER_MSG);
		return;
	}
	if (stream_fd_count(&conn->requests) >= MAX_QUEUED_FDS &&
			conn->validated == 0) {
		/* Nothing to forward, so nothing would ever free the queue. */
		connection_fail(conn, "%zu fds sent with no message to use them",
				stream_fd_count(&conn->requests));
		return;
	}
	if (n < 0 || eof) {
		hang_up(conn);
		return;
	}
	/* The read was accounted above; nothing since changed what it holds. */
	update_ready(conn);
	update_outer_mask(conn);
}

static int handle_outer(int fd, uint32_t mask, void *data) {
	struct gate_connection *conn = data;
	if (mask & WL_EVENT_WRITABLE) {
		if (!pass_on_events(conn)) {
			disconnect(conn);
			return 0;
		}
	}
	if (mask & WL_EVENT_READABLE) {
		read_requests(conn, fd);
		return 0;
	}
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		hang_up(conn);
		return 0;
	}
	update_outer_mask(conn);
	account(conn);
	return 0;
}

int connection_forward(
		struct gate_connection *conn, size_t max_bytes, size_t max_requests) {
	struct gate *gate = conn->gate;
	struct wire_scan scan = {
			.bytes = conn->validated,
			.messages = conn->validated_messages,
	};
	if (max_bytes < WIRE_MAX_MESSAGE_SIZE) {
		max_bytes = WIRE_MAX_MESSAGE_SIZE;
	}
	if (scan.bytes > max_bytes ||
			(max_requests != 0 && scan.messages > max_requests)) {
		/* Only where the batch ends short of all that was checked are
		 * the headers walked a second time, to find that end. */
		wire_scan(stream_data(&conn->requests), conn->validated, max_bytes,
				max_requests, &scan);
	}
	if (scan.bytes == 0) {
		return 0;
	}
	if (gate->trace) {
		gate_trace_forward(gate->trace, conn->client, conn->pid, scan.messages,
				scan.bytes);
	}
	conn->owner.released = scan.bytes;
	gate->batch = (struct gate_batch){
			.conn = conn,
			.phase = GATE_BATCH_SERVING,
			/*
			 * A batch that takes all the client has sent leaves it waiting
			 * for us, most likely for what these requests answer (buffer
			 * releases, sync callbacks). A client with more queued is not
			 * waiting: its answers go out after the batch, in one send.
			 */
			.answer_early =
					scan.bytes == conn->validated && !requests_full(conn),
	};
	enum wayland_end_served served = gate->transport->serve(conn->end);
	if (served == WAYLAND_END_GONE) {
		return -1; /* libwayland dropped it, and the batch with it */
	}
	gate->batch.phase = GATE_BATCH_ANSWERING;
	conn->validated_messages -= scan.messages;
	if (served == WAYLAND_END_STALLED) {
		/* A batch is whole messages that fit libwayland's buffer: this
		 * cannot happen, and waiting would only spin. */
		conn->owner.released = 0;
		connection_fail(conn, "libwayland took no more of its requests");
		return -1;
	}
	conn->stats.requests += scan.messages;
	conn->stats.request_bytes += scan.bytes;
	conn->stats.batches++;
	update_ready(conn);
	update_outer_mask(conn);
	return scan.messages;
}

void connection_collect_events(struct gate_connection *conn) {
	conn->gate->transport->collect(conn->end);
}

void connection_reach_request(struct gate_connection *conn) {
	struct gate_batch *batch = &conn->gate->batch;
	/*
	 * Requests that queued no event have nothing to send early: a storm of
	 * cheap requests costs this test alone, not a flush each.
	 */
	if (!batch->answer_early || batch->events == batch->events_seen) {
		return;
	}
	batch->events_seen = batch->events;
	/*
	 * Once a batch: a send costs about as much as the client's wakeup, and
	 * sending at every request boundary cost a lone sync flooder a good
	 * part of its rate, as each of its batches ends in a burst.
	 */
	uint64_t events = conn->stats.events;
	wl_client_flush(conn->client);
	connection_collect_events(conn);
	if (conn->stats.events != events) {
		batch->answer_early = false;
	}
}

void connection_note_event(struct gate_connection *conn) {
	if (++conn->gate->batch.events % COLLECT_EVERY_EVENTS == 0) {
		connection_collect_events(conn);
	}
}

void connection_fail(struct gate_connection *conn, const char *fmt, ...) {
	char reason[256];
	va_list args;
	va_start(args, fmt);
	vsnprintf(reason, sizeof(reason), fmt, args);
	va_end(args);
	sched_log(
			SCHED_LOG_ERROR, "disconnecting client %d: %s", conn->pid, reason);
	struct wl_resource *display = wl_client_get_object(conn->client, 1);
	if (display) {
		wl_resource_post_error(
				display, WL_DISPLAY_ERROR_INVALID_METHOD, "%s", reason);
	}
	disconnect(conn);
}

/* Ids from here up are the server's own, not the client's doing. */
#define SERVER_ID_START 0xff000000u

static enum wl_iterator_result count_resource(
		struct wl_resource *resource, void *data) {
	(*(uint32_t *)data)++;
	return WL_ITERATOR_CONTINUE;
}

static void handle_resource_created(struct wl_listener *listener, void *data) {
	struct gate_connection *conn =
			wl_container_of(listener, conn, resource_created);
	uint32_t id = wl_resource_get_id(data);
	uint32_t cap = conn->gate->config.max_client_objects;
	if (id <= cap || id >= SERVER_ID_START) {
		return;
	}
	/*
	 * A client can run ahead of us with ids whose objects are long gone
	 * here (a flood of syncs does), so count what is really held; every
	 * 256th time, which keeps the walk cheap.
	 */
	if (conn->creations_past_cap++ % 256 != 0) {
		return;
	}
	uint32_t held = 0;
	wl_client_for_each_resource(conn->client, count_resource, &held);
	if (held <= cap) {
		return;
	}
	sched_log(SCHED_LOG_ERROR,
			"disconnecting client %d: %u objects, at most %u", conn->pid, held,
			cap);
	struct wl_resource *display = wl_client_get_object(conn->client, 1);
	if (display) {
		/* libwayland destroys the client once this request is done. */
		wl_resource_post_error(display, WL_DISPLAY_ERROR_NO_MEMORY,
				"too many objects: %u, at most %u", held, cap);
	}
}

static void connection_free(struct gate_connection *conn) {
	struct gate *gate = conn->gate;
	if (gate->batch.conn == conn) {
		gate->batch = (struct gate_batch){0};
	}
	sched_entity_remove(&gate->policy, &conn->entity);
	gate_limits_forget(conn);
	gate->connection_count--;
	peer_finish(&conn->peer);
	wl_list_remove(&conn->client_destroy.link);
	wl_list_remove(&conn->resource_created.link);
	wl_list_remove(&conn->link);
	wl_list_remove(&conn->unflushed_link);
	if (conn->state == CONNECTION_DROPPING) {
		wl_list_remove(&conn->drop_link);
	}
	wl_event_source_remove(conn->outer_source);
	/* libwayland closes its side itself, right after. */
	gate->transport->detach(conn->end);
	stream_finish(&conn->requests);
	stream_finish(&conn->events);
	close(conn->outer_fd);
	free(conn->failure);
	free(conn);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct gate_connection *conn =
			wl_container_of(listener, conn, client_destroy);
	wl_signal_emit(&conn->destroy_signal, conn);
	/*
	 * libwayland emits this before its own final flush, so flush now: a
	 * protocol error it just posted must reach the client before we close.
	 */
	wl_client_flush(conn->client);
	connection_collect_events(conn);
	send_events(conn);
	connection_free(conn);
}

struct gate_connection *gate_connection_from_client(struct wl_client *client) {
	struct wl_listener *listener =
			wl_client_get_destroy_listener(client, handle_client_destroy);
	if (!listener) {
		return NULL;
	}
	struct gate_connection *conn =
			wl_container_of(listener, conn, client_destroy);
	return conn;
}

struct gate_connection *connection_create(
		struct gate *gate, int outer_fd, bool accepted) {
	uint64_t now_ticks = peer_now_ticks();
	struct gate_connection *conn = calloc(1, sizeof(*conn));
	if (!conn) {
		goto error_fd;
	}
	conn->gate = gate;
	conn->outer_fd = outer_fd;
	stream_init(&conn->requests);
	stream_init(&conn->events);
	wl_list_init(&conn->unflushed_link);
	peer_init(&conn->peer);
	wl_signal_init(&conn->destroy_signal);
	conn->owner = (struct wayland_end_owner){
			.impl = &owner_impl,
			.requests = &conn->requests,
			.events = &conn->events,
	};

	struct ucred cred;
	socklen_t cred_len = sizeof(cred);
	if (getsockopt(outer_fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) == 0) {
		conn->pid = cred.pid;
		conn->uid = cred.uid;
	}
	if (accepted) {
		peer_pin_socket(&conn->peer, outer_fd, now_ticks);
	} else {
		conn->pin_writer = true;
		peer_pass_credentials(outer_fd, true);
	}

	int wayland_fd;
	conn->end = gate->transport->attach(gate->loop, &conn->owner, &wayland_fd);
	if (!conn->end) {
		sched_log(SCHED_LOG_ERROR, "cannot make libwayland's end for client %d",
				conn->pid);
		goto error_conn;
	}
	gate->creating_client = true;
	conn->client = gate->config.create_client(gate->display, wayland_fd);
	gate->creating_client = false;
	if (!conn->client) {
		sched_log(SCHED_LOG_ERROR, "wl_client_create failed");
		goto error_attached;
	}
	if (!gate->transport->attached(conn->end)) {
		sched_log(SCHED_LOG_ERROR,
				"libwayland registered client %d's end unseen by the %s "
				"transport",
				conn->pid, gate->transport->name);
		goto error_client;
	}

	conn->outer_mask = WL_EVENT_READABLE;
	conn->outer_source = wl_event_loop_add_fd(
			gate->loop, outer_fd, conn->outer_mask, handle_outer, conn);
	if (!conn->outer_source) {
		sched_log(SCHED_LOG_ERROR, "cannot watch client %d", conn->pid);
		goto error_client;
	}

	sched_entity_add(&gate->policy, &conn->entity, sched_clock_now_ns());
	gate->connection_count++;
	conn->client_destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(conn->client, &conn->client_destroy);
	conn->resource_created.notify = handle_resource_created;
	wl_client_add_resource_created_listener(
			conn->client, &conn->resource_created);
	wl_list_insert(gate->connections.prev, &conn->link);
	/* After client_destroy: the trace's disconnect comes after the last
	 * events that handler sends. */
	gate_trace_connect(gate->trace, conn->client, conn->pid);
	sched_log(SCHED_LOG_DEBUG, "gated client pid %d", conn->pid);
	wl_signal_emit(&gate->new_connection_signal, conn);
	return conn;

error_client:
	/* libwayland closes its side. */
	gate->transport->detach(conn->end);
	wl_client_destroy(conn->client);
	goto error_conn;
error_attached:
	gate->transport->detach(conn->end);
	close(wayland_fd);
error_conn:
	peer_finish(&conn->peer);
	free(conn);
error_fd:
	close(outer_fd);
	return NULL;
}
