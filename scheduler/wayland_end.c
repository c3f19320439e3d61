#include "scheduler/wayland_end.h"
#include "scheduler/connection.h"
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/*
 * Indexed by fd: every recvmsg and sendmsg in the process asks, so the
 * answer must be one load. Only the display's thread attaches and
 * detaches, but any thread's socket calls read the table, so growing it
 * must never pull it from under a reader: a grown table is published
 * before its length, and the tables it replaces are kept, not freed (at
 * most one per doubling).
 */
#define MAX_TABLES 32

static struct gate_connection **tables[MAX_TABLES];
static size_t table_count;
static struct gate_connection **_Atomic ends;
static _Atomic size_t ends_len;

static struct gate_connection *lookup(int fd) {
	size_t len = atomic_load_explicit(&ends_len, memory_order_acquire);
	if (fd < 0 || (size_t)fd >= len) {
		return NULL;
	}
	return atomic_load_explicit(&ends, memory_order_relaxed)[fd];
}

static bool grow(size_t fd) {
	size_t old_len = atomic_load_explicit(&ends_len, memory_order_relaxed);
	size_t len = old_len ? old_len : 64;
	while (len <= fd) {
		len *= 2;
	}
	if (table_count == MAX_TABLES) {
		return false;
	}
	struct gate_connection **grown = calloc(len, sizeof(*grown));
	if (!grown) {
		return false;
	}
	struct gate_connection **old = atomic_load(&ends);
	if (old) {
		memcpy(grown, old, old_len * sizeof(*grown));
	}
	tables[table_count++] = grown;
	atomic_store_explicit(&ends, grown, memory_order_relaxed);
	atomic_store_explicit(&ends_len, len, memory_order_release);
	return true;
}

bool wayland_end_attach(int fd, struct gate_connection *conn) {
	if (fd < 0) {
		return false;
	}
	if ((size_t)fd >= atomic_load(&ends_len) && !grow(fd)) {
		return false;
	}
	atomic_load(&ends)[fd] = conn;
	return true;
}

void wayland_end_detach(int fd) {
	if (lookup(fd)) {
		atomic_load(&ends)[fd] = NULL;
	}
}

bool wayland_end_recvmsg(int fd, struct msghdr *msg, ssize_t *result) {
	struct gate_connection *conn = lookup(fd);
	if (!conn) {
		return false;
	}
	*result = connection_give_requests(conn, msg);
	return true;
}

bool wayland_end_sendmsg(int fd, const struct msghdr *msg, ssize_t *result) {
	struct gate_connection *conn = lookup(fd);
	if (!conn) {
		return false;
	}
	*result = connection_take_events(conn, msg);
	return true;
}

void wayland_end_add_fd(int fd, wl_event_loop_fd_func_t func, void *data) {
	struct gate_connection *conn = lookup(fd);
	if (conn && !conn->wayland_read) {
		conn->wayland_read = func;
		conn->wayland_read_data = data;
	}
}
