#include "scheduler/gate/gate.h"
#include "scheduler/gate/connection.h"
#include "scheduler/gate/gate_internal.h"
#include "scheduler/gate/limits.h"
#include "scheduler/gate/protocol_logger.h"
#include "scheduler/gate/transport_choose.h"
#include "scheduler/gate/ungated.h"
#include "scheduler/log.h"
#include "scheduler/sched_clock.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_BATCH_REQUESTS 8192

void gate_config_default(struct gate_config *config) {
	memset(config, 0, sizeof(*config));
	/*
	 * Xorg's 5 ms interval and 15 ms slice made echo and animation jitter
	 * worse in bench/'s interval sweep, and shorter ones cost nothing in
	 * throughput, as batches are one libwayland read (bench/README.md).
	 */
	sched_params_init(&config->sched, GATE_DEFAULT_INTERVAL_NS);
	config->transport = GATE_TRANSPORT_AUTO;
	config->request_cap = 32 * 1024;
	/* What sway and mutter allow libwayland to buffer. */
	config->event_backlog_cap = 1024 * 1024;
	/*
	 * A client that sends while another's batch is served waits for the
	 * rest of that batch: shorter batches gave a probe's round trip under
	 * flooders a lower median for a little less flooding (bench/README.md).
	 */
	config->batch_target_ns = 100 * 1000;
	/*
	 * With no other client ready, the batch only bounds how long input,
	 * timers and a client that starts sending wait; batches as short as
	 * the shared ones cost a lone sync flooder part of its rate.
	 */
	config->lone_batch_target_ns = 500 * 1000;
	/*
	 * Shared, a batch is one libwayland read: longer ones only coarsen
	 * the turns. Alone, it may be several: a client that keeps its socket
	 * full is then read in large pieces and served several reads per
	 * loop turn, one socket read and one wakeup where libwayland alone
	 * spends one of each per 4 KiB (bench/README.md, storm).
	 */
	config->batch_max_bytes = 4096;
	config->lone_batch_max_bytes = 32 * 1024;
	/* libwayland's object map has no limit of its own; real clients hold
	 * hundreds of objects. */
	config->max_client_objects = 10000;
	/* Twice bench/'s largest scale; fewer where the fd limit is low. */
	config->max_clients = 1024;
	/* 64 clients at the event cap at once. */
	config->total_queued_cap = 64 * config->event_backlog_cap;
	config->create_client = wl_client_create;
}

/* How long to stop accepting when fairway is out of fds. */
#define ACCEPT_RETRY_MS 100

static int handle_accept_retry(void *data) {
	struct gate *gate = data;
	wl_event_source_fd_update(gate->socket_source, WL_EVENT_READABLE);
	return 0;
}

/*
 * Out of fds, the listening socket stays readable and accept keeps failing:
 * rather than spin, stop listening for a moment; the waiting clients stay
 * in the backlog. (The timer is made in gate_listen: out of fds, no timer
 * could be made here.)
 */
static void pause_accepting(struct gate *gate) {
	sched_log(SCHED_LOG_ERROR, "accept: %s; retrying in %d ms", strerror(errno),
			ACCEPT_RETRY_MS);
	wl_event_source_fd_update(gate->socket_source, 0);
	wl_event_source_timer_update(gate->accept_retry, ACCEPT_RETRY_MS);
}

/*
 * A few clients a wakeup: the listening socket stays readable while more
 * wait, and the clients already connected are served in between.
 */
static int handle_socket(int fd, uint32_t mask, void *data) {
	struct gate *gate = data;
	for (int i = 0; i < LIMITS_ACCEPT_PER_WAKEUP; i++) {
		int client_fd = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (client_fd >= 0) {
			if (gate_limits_may_accept(gate, client_fd)) {
				connection_create(gate, client_fd, true);
			} else {
				close(client_fd);
			}
			continue;
		}
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
				errno == ENOMEM) {
			pause_accepting(gate);
		} else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
				errno != ECONNABORTED) {
			sched_log(SCHED_LOG_ERROR, "accept: %s", strerror(errno));
		}
		break;
	}
	return 0;
}

struct gate *gate_create(
		struct wl_display *display, const struct gate_config *config) {
	struct gate *gate = calloc(1, sizeof(*gate));
	if (!gate) {
		return NULL;
	}
	gate->display = display;
	gate->loop = wl_display_get_event_loop(display);
	gate->config = *config;
	if (!gate->config.create_client) {
		gate->config.create_client = wl_client_create;
	}
	gate->socket.fd = gate->socket.lock_fd = -1;
	wl_list_init(&gate->connections);
	wl_list_init(&gate->unflushed);
	wl_list_init(&gate->drops);
	wl_signal_init(&gate->new_connection_signal);
	/* Before the protocol logger, which would see the probe's request. */
	gate->transport = gate_transport_choose(
			display, gate->config.transport, gate->config.create_client);
	if (!gate->transport) {
		free(gate);
		return NULL;
	}
	sched_policy_init(&gate->policy, &gate->config.sched);
	gate_limits_init(gate);
	gate_ungated_init(gate);
	if (!gate_protocol_logger_init(gate)) {
		gate_ungated_finish(gate);
		sched_policy_finish(&gate->policy);
		free(gate);
		return NULL;
	}
	return gate;
}

void gate_destroy(struct gate *gate) {
	if (!gate) {
		return;
	}
	struct gate_connection *conn, *tmp;
	wl_list_for_each_safe(conn, tmp, &gate->connections, link) {
		wl_client_destroy(conn->client);
	}
	if (gate->accept_retry) {
		wl_event_source_remove(gate->accept_retry);
	}
	if (gate->socket_source) {
		wl_event_source_remove(gate->socket_source);
	}
	gate_socket_close(&gate->socket);
	gate_protocol_logger_finish(gate);
	gate_ungated_finish(gate);
	sched_policy_finish(&gate->policy);
	free(gate);
}

const char *gate_transport_name(const struct gate *gate) {
	return gate->transport->name;
}

bool gate_listen(struct gate *gate, const char *name) {
	if (!gate_socket_open(&gate->socket, name)) {
		return false;
	}
	gate->socket_source = wl_event_loop_add_fd(gate->loop, gate->socket.fd,
			WL_EVENT_READABLE, handle_socket, gate);
	gate->accept_retry =
			wl_event_loop_add_timer(gate->loop, handle_accept_retry, gate);
	if (!gate->socket_source || !gate->accept_retry) {
		if (gate->socket_source) {
			wl_event_source_remove(gate->socket_source);
			gate->socket_source = NULL;
		}
		gate_socket_close(&gate->socket);
		return false;
	}
	return true;
}

const char *gate_socket_name(const struct gate *gate) {
	return gate->socket.fd >= 0 ? gate->socket.name : NULL;
}

struct wl_client *gate_adopt(struct gate *gate, int fd) {
	struct gate_connection *conn = connection_create(gate, fd, false);
	return conn ? conn->client : NULL;
}

struct wl_client *gate_adopt_accepted(struct gate *gate, int fd) {
	/* The same caps as for a client of the gate's own socket. */
	if (!gate_limits_may_accept(gate, fd)) {
		close(fd);
		return NULL;
	}
	struct gate_connection *conn = connection_create(gate, fd, true);
	return conn ? conn->client : NULL;
}

void gate_set_trace(struct gate *gate, struct gate_trace *trace) {
	gate->trace = trace;
}

void gate_set_sched_params(
		struct gate *gate, const struct sched_params *params) {
	gate->config.sched = *params;
	sched_policy_set_params(&gate->policy, params);
}

void gate_note_input(struct gate *gate, struct wl_client *client) {
	struct gate_connection *conn = gate_connection_from_client(client);
	if (conn) {
		sched_entity_note_input(&gate->policy, &conn->entity);
	}
}

bool gate_set_client_priority(
		struct gate *gate, struct wl_client *client, int priority) {
	struct gate_connection *conn = gate_connection_from_client(client);
	if (!conn) {
		return false;
	}
	if (conn->entity.client_priority != priority) {
		sched_log(SCHED_LOG_DEBUG, "client pid %d: client priority %d -> %d",
				(int)conn->pid, conn->entity.client_priority, priority);
	}
	sched_entity_set_client_priority(&gate->policy, &conn->entity, priority);
	return true;
}

struct wl_client *gate_connection_get_client(
		const struct gate_connection *conn) {
	return conn->client;
}

bool gate_connection_get_process(
		const struct gate_connection *conn, pid_t *pid, uid_t *uid) {
	if (conn->pin_writer) {
		return false;
	}
	if (pid) {
		*pid = conn->peer.pid;
	}
	if (uid) {
		*uid = conn->peer.uid;
	}
	return true;
}

int gate_connection_dup_pidfd(const struct gate_connection *conn) {
	return peer_dup_pidfd(&conn->peer);
}

int64_t gate_connection_service_ns(const struct gate_connection *conn) {
	return conn->entity.stats.run_ns;
}

void gate_connection_add_destroy_listener(
		struct gate_connection *conn, struct wl_listener *listener) {
	wl_signal_add(&conn->destroy_signal, listener);
}

size_t gate_connection_count(const struct gate *gate) {
	return gate->connection_count;
}

void gate_for_each_connection(struct gate *gate,
		enum wl_iterator_result (*func)(
				struct gate_connection *conn, void *data),
		void *data) {
	struct gate_connection *conn;
	wl_list_for_each(conn, &gate->connections, link) {
		if (func(conn, data) == WL_ITERATOR_STOP) {
			return;
		}
	}
}

void gate_add_new_connection_listener(
		struct gate *gate, struct wl_listener *listener) {
	wl_signal_add(&gate->new_connection_signal, listener);
}

/*
 * A batch is sized from what this client's requests have cost so far, so
 * that serving it keeps input, repaint and the other clients waiting for
 * at most about the batch target, and never past the end of the slice.
 */
static size_t batch_requests(
		struct gate *gate, struct gate_connection *conn, int64_t now) {
	int64_t budget = sched_policy_slice_left(&gate->policy, now);
	int64_t target = sched_policy_alone(&gate->policy)
			? gate->config.lone_batch_target_ns
			: gate->config.batch_target_ns;
	if (budget > target) {
		budget = target;
	}
	int64_t requests = budget / sched_entity_request_cost(&conn->entity);
	if (requests < 1) {
		return 1;
	}
	return requests > MAX_BATCH_REQUESTS ? MAX_BATCH_REQUESTS : requests;
}

/*
 * Serves the client the policy chooses one batch, which libwayland reads
 * and runs before this returns, and charges it what that took. Leaves the
 * batch ANSWERING, or NONE if none was served or its client is gone.
 *
 * Batches are timed with CLOCK_MONOTONIC: the thread's CPU clock would
 * leave out the time the kernel ran someone else in the middle of one, but
 * it is a syscall, more than a small batch's requests cost. The policy
 * caps what an interrupted batch is charged instead.
 */
static void serve_next_batch(struct gate *gate) {
	int64_t now = sched_clock_now_ns();
	struct sched_entity *entity = sched_policy_next(&gate->policy, now);
	if (!entity) {
		return;
	}
	struct gate_connection *conn = wl_container_of(entity, conn, entity);
	size_t max = batch_requests(gate, conn, now);
	size_t max_bytes = sched_policy_alone(&gate->policy)
			? gate->config.lone_batch_max_bytes
			: gate->config.batch_max_bytes;
	int served = connection_forward(conn, max_bytes, max);
	if (served <= 0) {
		return;
	}
	sched_entity_charge_batch(
			&gate->policy, &conn->entity, sched_clock_now_ns() - now, served);
	/* A client that goes here takes the batch with it. */
	connection_settle(conn);
}

/*
 * Under load, how long the events libwayland queued for clients other than
 * the one served may wait: each such client's events of several batches
 * then go out in one send, rather than one send a batch.
 */
#define FLUSH_OTHERS_EVERY_NS (250 * 1000)

/*
 * Sends the events libwayland queued, client by client: only the clients
 * the protocol logger saw events queued for, gated (gate.unflushed) or
 * not (ungated.h), so that an idle client costs nothing here, whatever
 * the transport.
 *
 * Unlike its walk, libwayland's wl_client_flush does not watch a socket
 * it found full (EAGAIN) for room, and leaves the rest in its buffer.
 * The memory transport takes every write whole. The socketpair transport's
 * socket is full only while the gate has not drained it, and each drain
 * puts the client back on gate.unflushed (handle_socket_drained), so the
 * next flush here takes up where that one stopped.
 */
static void flush_clients(struct gate *gate) {
	gate_ungated_flush(gate);
	if (gate->ungated_lost) {
		gate->ungated_lost = false;
		wl_display_flush_clients(gate->display);
	}
	while (!wl_list_empty(&gate->unflushed)) {
		struct gate_connection *conn =
				wl_container_of(gate->unflushed.next, conn, unflushed_link);
		wl_list_remove(&conn->unflushed_link);
		wl_list_init(&conn->unflushed_link);
		wl_client_flush(conn->client);
	}
}

void gate_iterate(struct gate *gate) {
	/*
	 * Inside wl_event_loop_dispatch, a client's requests are followed by
	 * the idle work they schedule (wlroots sends xdg configures from idle
	 * sources) and the events of both leave together; a client's
	 * roundtrip counts on it. So here too.
	 */
	serve_next_batch(gate);
	if (gate->batch.conn) {
		wl_event_loop_dispatch_idle(gate->loop);
	}
	connection_drop_pending(gate);
	/*
	 * The served client's answers go out at once. Everyone's events (what
	 * the batch queued for others, input, frame callbacks) go out before
	 * fairway waits, and every FLUSH_OTHERS_EVERY_NS while it is busy.
	 */
	bool busy = !wl_list_empty(&gate->policy.ready);
	int64_t now = sched_clock_now_ns();
	if (!busy || now - gate->flushed_ns >= FLUSH_OTHERS_EVERY_NS) {
		flush_clients(gate);
		gate->flushed_ns = now;
	} else if (gate->batch.conn) {
		wl_client_flush(gate->batch.conn->client);
	}
	if (gate->batch.conn) {
		/* Its answers reach it now, whatever the transport. */
		connection_collect_events(gate->batch.conn);
	}
	gate->batch = (struct gate_batch){0};
	wl_event_loop_dispatch(gate->loop, busy ? 0 : -1);
}
