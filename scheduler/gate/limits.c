#include "scheduler/gate/limits.h"
#include "scheduler/gate/gate_internal.h"
#include "scheduler/log.h"
#include "scheduler/sched_clock.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-protocol.h>

/* fds a connection costs fairway: its socket, the socketpair, a pidfd... */
#define FDS_PER_CLIENT 8

void gate_limits_init(struct gate *gate) {
	struct rlimit lim = {.rlim_cur = 1024};
	getrlimit(RLIMIT_NOFILE, &lim);
	size_t limit = lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > (1u << 30)
			? (size_t)1 << 30
			: (size_t)lim.rlim_cur;
	gate->fd_budget = limit - limit / 4;
	size_t room = limit / 2 / FDS_PER_CLIENT;
	if (gate->config.max_clients == 0 || gate->config.max_clients > room) {
		gate->config.max_clients = room;
	}
	sched_log(SCHED_LOG_INFO,
			"limits: %zu clients, %zu queued fds in all (RLIMIT_NOFILE %zu), "
			"%zu fds and %zu bytes of events per client, %zu MiB queued in "
			"all",
			gate->config.max_clients, gate->fd_budget, limit,
			(size_t)LIMITS_MAX_QUEUED_FDS, gate->config.event_backlog_cap,
			gate->config.total_queued_cap >> 20);
}

static size_t held_bytes(const struct gate_connection *conn) {
	return conn->requests.capacity + conn->events.capacity;
}

static size_t held_fds(const struct gate_connection *conn) {
	return stream_fd_count(&conn->requests) + stream_fd_count(&conn->events);
}

/* The client holding the most of what ran over: it is to go. */
static struct gate_connection *biggest(struct gate *gate, bool fds) {
	struct gate_connection *conn, *biggest = NULL;
	size_t most = 0;
	wl_list_for_each(conn, &gate->connections, link) {
		size_t held = fds ? conn->accounted_fds : conn->accounted_bytes;
		if (conn->state != CONNECTION_DROPPING && held > most) {
			most = held;
			biggest = conn;
		}
	}
	if (biggest == NULL) {
		return NULL;
	}
	sched_log(SCHED_LOG_ERROR,
			"clients hold %zu queued %s together, over %zu: dropping client "
			"%d, which holds %zu",
			fds ? gate->queued_fds : gate->queued_bytes, fds ? "fds" : "bytes",
			fds ? gate->fd_budget : gate->config.total_queued_cap,
			(int)biggest->pid, most);
	/* What it holds is on its way back: counted on, it would have the
	 * next client that reads dropped in its place. */
	gate_limits_forget(biggest);
	return biggest;
}

struct gate_connection *gate_limits_account(struct gate_connection *conn) {
	struct gate *gate = conn->gate;
	if (conn->state == CONNECTION_DROPPING) {
		gate_limits_forget(conn);
		return NULL;
	}
	size_t fds = held_fds(conn), bytes = held_bytes(conn);
	gate->queued_fds += fds - conn->accounted_fds;
	gate->queued_bytes += bytes - conn->accounted_bytes;
	conn->accounted_fds = fds;
	conn->accounted_bytes = bytes;
	if (gate->queued_fds > gate->fd_budget) {
		return biggest(gate, true);
	}
	if (gate->config.total_queued_cap > 0 &&
			gate->queued_bytes > gate->config.total_queued_cap) {
		return biggest(gate, false);
	}
	return NULL;
}

void gate_limits_forget(struct gate_connection *conn) {
	struct gate *gate = conn->gate;
	gate->queued_fds -= conn->accounted_fds;
	gate->queued_bytes -= conn->accounted_bytes;
	conn->accounted_fds = conn->accounted_bytes = 0;
}

/*
 * What a refused client reads: a wl_display.error, as if it had connected
 * and been told at once, rather than a bare hang-up.
 */
static void send_refusal(int fd, const char *reason) {
	uint32_t msg[32] = {0};
	size_t len = strlen(reason) + 1;
	size_t padded = (len + 3) & ~(size_t)3;
	size_t size = 5 * 4 + padded;
	if (size > sizeof(msg)) {
		return;
	}
	msg[0] = 1;
	msg[1] = (uint32_t)(size << 16) | WL_DISPLAY_ERROR;
	msg[2] = 1;
	msg[3] = WL_DISPLAY_ERROR_NO_MEMORY;
	msg[4] = (uint32_t)len;
	memcpy(&msg[5], reason, len);
	send(fd, msg, size, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* A refusal logged at most once a second, with how many went unlogged. */
static void log_refusal(struct gate *gate, const char *why) {
	static int64_t logged_ns;
	static unsigned unlogged;
	int64_t now = sched_clock_now_ns();
	if (logged_ns != 0 && now - logged_ns < SCHED_NS_PER_MS * 1000) {
		unlogged++;
		return;
	}
	sched_log(SCHED_LOG_ERROR, "refusing a client: %s (%u more refused)", why,
			unlogged);
	logged_ns = now;
	unlogged = 0;
}

bool gate_limits_may_accept(struct gate *gate, int fd) {
	if (gate->connection_count < gate->config.max_clients) {
		return true;
	}
	char why[96];
	snprintf(why, sizeof(why), "%zu clients connected, the most fairway takes",
			gate->connection_count);
	log_refusal(gate, why);
	send_refusal(fd, "too many clients");
	return false;
}
