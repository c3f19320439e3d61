#include "scheduler/gate/protocol_logger.h"
#include "scheduler/gate/connection.h"
#include "scheduler/gate/ungated.h"
#include "scheduler/log.h"
#include "scheduler/sched_clock.h"
#include "scheduler/token_bucket.h"
#include <stdio.h>
#include <string.h>
#include <wayland-server-protocol.h>

/*
 * Protocol errors logged: a burst of ERRORS_BURST, then ERRORS_PER_SECOND;
 * the rest are counted into the next line.
 */
#define ERRORS_BURST 50
#define ERRORS_PER_SECOND 10

/*
 * libwayland posts wl_display.error and drops the client with one line in
 * the log that gives neither the error nor, for a gated client, its pid
 * (its socket's peer is fairway): note each error with the pid of the
 * client, so that every disconnection has a logged reason. The message
 * may quote what the client sent (an interface name, say), so it is
 * escaped; and clients can cause errors as fast as they can connect, so
 * the lines are rationed.
 */
static void log_protocol_error(
		const struct wl_protocol_logger_message *message) {
	static struct sched_token_bucket tokens = {
			.tokens = ERRORS_BURST, .taken_ns = INT64_MIN};
	static unsigned unlogged;
	if (!sched_token_bucket_take(&tokens, ERRORS_BURST,
				1000 * SCHED_NS_PER_MS / ERRORS_PER_SECOND,
				sched_clock_now_ns())) {
		unlogged++;
		return;
	}
	struct wl_client *client = wl_resource_get_client(message->resource);
	struct gate_connection *conn = gate_connection_from_client(client);
	const char *reason = message->arguments[2].s;
	char escaped[256];
	sched_log_escape(escaped, sizeof(escaped), reason ? reason : "");
	char more[64] = "";
	if (unlogged > 0) {
		snprintf(more, sizeof(more), " (%u more not logged before it)",
				unlogged);
		unlogged = 0;
	}
	sched_log(SCHED_LOG_ERROR, "client %d: protocol error %u: %s%s",
			conn ? (int)conn->pid : -1, message->arguments[1].u, escaped, more);
}

static bool is_protocol_error(
		const struct wl_protocol_logger_message *message) {
	return message->message_opcode == WL_DISPLAY_ERROR &&
			message->arguments_count == 3 &&
			strcmp(wl_resource_get_class(message->resource), "wl_display") == 0;
}

/* Every message of every client passes here: keep the common path short. */
static void handle_message(void *data, enum wl_protocol_logger_type type,
		const struct wl_protocol_logger_message *message) {
	struct gate *gate = data;
	struct gate_batch *batch = &gate->batch;
	if (type == WL_PROTOCOL_LOGGER_REQUEST) {
		/* libwayland runs only the served client's requests meanwhile;
		 * only events queued since the last boundary need an early send. */
		if (batch->phase == GATE_BATCH_SERVING && batch->answer_early &&
				batch->events != batch->events_seen) {
			connection_reach_request(batch->conn);
		}
		return;
	}
	struct wl_client *client = wl_resource_get_client(message->resource);
	struct gate_connection *conn = NULL;
	if (batch->phase != GATE_BATCH_NONE && client == batch->conn->client) {
		conn = batch->conn;
		if (batch->phase == GATE_BATCH_SERVING) {
			connection_note_event(conn);
		}
	} else {
		conn = gate_connection_from_client(client);
	}
	if (conn == NULL) {
		gate_ungated_note(gate, client);
	} else {
		connection_mark_unflushed(conn);
	}
	if (is_protocol_error(message)) {
		log_protocol_error(message);
	}
}

/* A display destroyed first would leave its loggers to leak. */
static void handle_display_destroy(struct wl_listener *listener, void *data) {
	struct gate *gate = wl_container_of(listener, gate, display_destroy);
	gate_protocol_logger_finish(gate);
}

bool gate_protocol_logger_init(struct gate *gate) {
	gate->protocol_logger =
			wl_display_add_protocol_logger(gate->display, handle_message, gate);
	if (!gate->protocol_logger) {
		return false;
	}
	gate->display_destroy.notify = handle_display_destroy;
	wl_display_add_destroy_listener(gate->display, &gate->display_destroy);
	return true;
}

void gate_protocol_logger_finish(struct gate *gate) {
	if (!gate->protocol_logger) {
		return;
	}
	wl_protocol_logger_destroy(gate->protocol_logger);
	gate->protocol_logger = NULL;
	wl_list_remove(&gate->display_destroy.link);
}
