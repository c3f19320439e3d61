#include "scheduler/transport/transport_memory.h"
#include "scheduler/log.h"
#include "scheduler/transport/transport.h"
#include "scheduler/wire/stream.h"
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The memory transport (transport.h): libwayland's end of the socketpair
 * stays silent; its reads and writes on it are answered from the gate's
 * queues, and the gate runs its read callback itself.
 */

struct memory_end {
	struct wayland_end base;
	int fd; /* libwayland's side */
	/* The other side, held only so that libwayland's never hangs up. */
	int peer_fd;
	/* libwayland's read callback for this client, learnt as it registers. */
	wl_event_loop_fd_func_t read;
	void *read_data;
	/* While serve runs: cleared if the end is detached meanwhile. */
	bool *alive;
};

/*
 * Ends indexed by fd: every recvmsg and sendmsg in the process asks, so the
 * answer must be one load. Only the display's thread attaches and
 * detaches, but any thread's socket calls read the table, so growing it
 * must never pull it from under a reader: a grown table is published
 * before its length, and the tables it replaces are kept, not freed (at
 * most one per doubling).
 */
#define MAX_TABLES 32

static struct memory_end **tables[MAX_TABLES];
static size_t table_count;
static struct memory_end **_Atomic ends;
static _Atomic size_t ends_len;

static struct memory_end *lookup(int fd) {
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
	struct memory_end **grown = calloc(len, sizeof(*grown));
	if (!grown) {
		return false;
	}
	struct memory_end **old = atomic_load(&ends);
	if (old) {
		memcpy(grown, old, old_len * sizeof(*grown));
	}
	tables[table_count++] = grown;
	atomic_store_explicit(&ends, grown, memory_order_relaxed);
	atomic_store_explicit(&ends_len, len, memory_order_release);
	return true;
}

static bool table_set(int fd, struct memory_end *end) {
	if (fd < 0) {
		return false;
	}
	if ((size_t)fd >= atomic_load(&ends_len) && !grow(fd)) {
		return false;
	}
	atomic_load(&ends)[fd] = end;
	return true;
}

static struct wayland_end *memory_attach(
		struct wl_event_loop *loop, struct wayland_end_owner *owner, int *fd) {
	int pair[2];
	struct memory_end *end = (struct memory_end *)wayland_end_create(
			sizeof(*end), &gate_transport_memory, owner, 0, pair);
	if (!end) {
		return NULL;
	}
	end->peer_fd = pair[0];
	end->fd = pair[1];
	if (!table_set(end->fd, end)) {
		sched_log(
				SCHED_LOG_ERROR, "no room to serve fd %d from memory", end->fd);
		wayland_end_abandon(&end->base, pair);
		return NULL;
	}
	*fd = end->fd;
	return &end->base;
}

static bool memory_attached(struct wayland_end *base) {
	struct memory_end *end = (struct memory_end *)base;
	return end->read != NULL;
}

static void memory_detach(struct wayland_end *base) {
	struct memory_end *end = (struct memory_end *)base;
	if (lookup(end->fd) == end) {
		atomic_load(&ends)[end->fd] = NULL;
	}
	close(end->peer_fd);
	if (end->alive) {
		*end->alive = false;
	}
	free(end);
}

static enum wayland_end_served memory_serve(struct wayland_end *base) {
	struct memory_end *end = (struct memory_end *)base;
	struct wayland_end_owner *owner = base->owner;
	bool alive = true;
	end->alive = &alive;
	/*
	 * One call of libwayland's read callback calls recvmsg (28 fds at
	 * most each) until its input buffer (4096 bytes, its default) is full
	 * or recvmsg fails with EAGAIN, as ours does once nothing more is
	 * released or the next message would not fit, then runs every whole
	 * message it holds: a batch of up to 4096 bytes takes one call,
	 * whatever its fds, and a lone client's longer one a call per buffer
	 * it fills.
	 */
	while (owner->released > 0) {
		size_t left = owner->released;
		end->read(end->fd, WL_EVENT_READABLE, end->read_data);
		if (!alive) {
			return WAYLAND_END_GONE;
		}
		if (owner->released == left) {
			break;
		}
	}
	end->alive = NULL;
	return owner->released > 0 ? WAYLAND_END_STALLED : WAYLAND_END_SERVED;
}

static void memory_collect(struct wayland_end *base) {
	/* libwayland's writes reached the owner as it made them. */
}

const struct gate_transport gate_transport_memory = {
		.name = "memory",
		.attach = memory_attach,
		.attached = memory_attached,
		.detach = memory_detach,
		.serve = memory_serve,
		.collect = memory_collect,
};

/* A call the gate does not emulate fails, and says so once. */
static ssize_t refuse(const char *call, int flags) {
	static bool logged;
	if (!logged) {
		logged = true;
		sched_log(SCHED_LOG_ERROR,
				"libwayland called %s on a gated end with flags %#x, which "
				"the memory transport does not emulate: refused",
				call, (unsigned)flags);
	}
	errno = EOPNOTSUPP;
	return -1;
}

/*
 * Whose end fd is: NULL if it is none of ours, and the call goes to the
 * system. A call on a gated end with flags beyond `allowed` is refused:
 * *result is set and NULL returned with *refused.
 */
static struct wayland_end_owner *gated_owner(int fd, const char *call,
		int flags, int allowed, ssize_t *result, bool *refused) {
	struct memory_end *end = lookup(fd);
	*refused = end != NULL && (flags & ~allowed) != 0;
	if (*refused) {
		*result = refuse(call, flags);
		return NULL;
	}
	return end != NULL ? end->base.owner : NULL;
}

bool transport_memory_recvmsg(
		int fd, struct msghdr *msg, int flags, ssize_t *result) {
	bool refused;
	struct wayland_end_owner *owner = gated_owner(fd, "recvmsg", flags,
			MSG_DONTWAIT | MSG_CMSG_CLOEXEC, result, &refused);
	if (!owner) {
		return refused;
	}
	if (owner->released == 0) {
		/* Not its turn: as a socket with nothing in it would answer. */
		errno = EAGAIN;
		*result = -1;
		return true;
	}
	ssize_t n = stream_give(owner->requests, owner->released, msg);
	if (n > 0) {
		owner->released -= n;
		owner->impl->requests_taken(owner, n);
	}
	*result = n;
	return true;
}

bool transport_memory_sendmsg(
		int fd, const struct msghdr *msg, int flags, ssize_t *result) {
	bool refused;
	struct wayland_end_owner *owner = gated_owner(fd, "sendmsg", flags,
			MSG_DONTWAIT | MSG_NOSIGNAL, result, &refused);
	if (!owner) {
		return refused;
	}
	if (owner->discard_events) {
		*result = stream_iov_len(msg);
		return true;
	}
	/* On failure libwayland drops the client itself. */
	*result = stream_append_msg(owner->events, msg);
	if (*result >= 0) {
		owner->impl->events_added(owner);
	}
	return true;
}

void transport_memory_add_fd(int fd, wl_event_loop_fd_func_t func, void *data) {
	struct memory_end *end = lookup(fd);
	if (end && !end->read) {
		end->read = func;
		end->read_data = data;
	}
}
