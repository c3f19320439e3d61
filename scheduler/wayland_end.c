#include "scheduler/wayland_end.h"
#include "scheduler/connection.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * Indexed by fd: every recvmsg and sendmsg in the process asks, so the
 * answer must be one load.
 */
static struct gate_connection **ends;
static size_t ends_len;

static struct gate_connection *lookup(int fd) {
	return fd >= 0 && (size_t)fd < ends_len ? ends[fd] : NULL;
}

bool wayland_end_attach(int fd, struct gate_connection *conn) {
	if (fd < 0) {
		return false;
	}
	if ((size_t)fd >= ends_len) {
		size_t len = ends_len ? ends_len : 64;
		while (len <= (size_t)fd) {
			len *= 2;
		}
		struct gate_connection **grown = realloc(ends, len * sizeof(*ends));
		if (!grown) {
			return false;
		}
		memset(grown + ends_len, 0, (len - ends_len) * sizeof(*ends));
		ends = grown;
		ends_len = len;
	}
	ends[fd] = conn;
	return true;
}

void wayland_end_detach(int fd) {
	if (lookup(fd)) {
		ends[fd] = NULL;
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
