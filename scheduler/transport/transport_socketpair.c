#include "scheduler/gate/limits.h"
#include "scheduler/log.h"
#include "scheduler/transport/transport.h"
#include "scheduler/wire/stream.h"
#include <errno.h>
#include <limits.h>
#include <linux/sockios.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

/*
 * The socketpair transport (transport.h), with public libwayland API only:
 * the released requests are written into the socketpair, the event loop
 * runs libwayland's read of them, and libwayland's events are read back
 * out of it, at once after a flush the gate asked for and otherwise
 * whenever the gate's side becomes readable.
 *
 * Serving means turning the loop: whatever else is ready then (input,
 * timers, other clients' sockets) runs inside the batch and is charged to
 * it. The policy's cap on what an interrupted batch costs
 * (SCHED_MAX_COST_RISE) bounds that.
 */

struct socketpair_end {
	struct wayland_end base;
	struct wl_event_loop *loop;
	int fd; /* the gate's side; libwayland holds the other */
	struct wl_event_source *source;
	/* While serve runs: cleared if the end is detached meanwhile. */
	bool *alive;
};

/*
 * Turns of the loop a batch may sit unread before it counts as stalled:
 * a turn takes at most 32 ready sources, and libwayland's may not be
 * among them.
 */
#define STALL_TURNS 8

/*
 * Takes what libwayland has written. Every byte must go, and at once:
 * libwayland drops a client whose socket is full once what it refused
 * fills libwayland's buffer, 4 KiB at its default size.
 */
static void take_events(struct socketpair_end *end) {
	struct wayland_end_owner *owner = end->base.owner;
	int eof, fds;
	if (owner->discard_events) {
		struct stream scratch;
		stream_init(&scratch);
		stream_recv(&scratch, end->fd, SIZE_MAX / 2, SIZE_MAX, &eof, &fds);
		stream_finish(&scratch);
		return;
	}
	/*
	 * Past the fd cap the owner drops the client: reading on would only
	 * queue more of what it will throw away.
	 */
	size_t max_fds = LIMITS_MAX_QUEUED_FDS + 1;
	if (stream_recv(owner->events, end->fd, SIZE_MAX / 2, max_fds, &eof, &fds) >
			0) {
		owner->impl->events_added(owner);
		/*
		 * libwayland's wl_client_flush leaves what a full socket refused
		 * in its buffer, and nothing of libwayland's comes back for it:
		 * the owner has it flushed again.
		 */
		owner->impl->socket_drained(owner);
	}
}

static int handle_readable(int fd, uint32_t mask, void *data) {
	take_events(data);
	return 0;
}

static struct wayland_end *socketpair_attach(
		struct wl_event_loop *loop, struct wayland_end_owner *owner, int *fd) {
	int pair[2];
	struct socketpair_end *end =
			(struct socketpair_end *)wayland_end_create(sizeof(*end),
					&gate_transport_socketpair, owner, SOCK_NONBLOCK, pair);
	if (!end) {
		return NULL;
	}
	end->loop = loop;
	/*
	 * What libwayland writes in one batch must fit before the gate reads
	 * it back: as much as the kernel lets an unprivileged process have.
	 */
	int most = INT_MAX;
	setsockopt(pair[1], SOL_SOCKET, SO_SNDBUF, &most, sizeof(most));
	end->fd = pair[0];
	end->source = wl_event_loop_add_fd(
			loop, end->fd, WL_EVENT_READABLE, handle_readable, end);
	if (!end->source) {
		sched_log(SCHED_LOG_ERROR, "cannot watch libwayland's end");
		wayland_end_abandon(&end->base, pair);
		return NULL;
	}
	*fd = pair[1];
	return &end->base;
}

static bool socketpair_attached(struct wayland_end *base) {
	return true;
}

static void socketpair_detach(struct wayland_end *base) {
	struct socketpair_end *end = (struct socketpair_end *)base;
	wl_event_source_remove(end->source);
	close(end->fd);
	if (end->alive) {
		*end->alive = false;
	}
	free(end);
}

/*
 * What libwayland has yet to read of what was written into the socketpair,
 * as the kernel counts it (buffer space, not bytes): 0 once it read all,
 * and less each time it reads some.
 */
static size_t unread(const struct socketpair_end *end) {
	int queued = 0;
	if (ioctl(end->fd, SIOCOUTQ, &queued) < 0 || queued < 0) {
		return 0;
	}
	return (size_t)queued;
}

static enum wayland_end_served socketpair_serve(struct wayland_end *base) {
	struct socketpair_end *end = (struct socketpair_end *)base;
	struct wayland_end_owner *owner = base->owner;
	bool alive = true;
	end->alive = &alive;
	size_t left = SIZE_MAX;
	int turns_without_progress = 0;
	for (;;) {
		if (owner->released > 0) {
			ssize_t n = stream_send(owner->requests, end->fd, owner->released);
			if (n > 0) {
				owner->released -= n;
				owner->impl->requests_taken(owner, n);
			}
		}
		size_t now_left = owner->released + unread(end);
		if (now_left == 0) {
			end->alive = NULL;
			return WAYLAND_END_SERVED;
		}
		turns_without_progress =
				now_left < left ? 0 : turns_without_progress + 1;
		left = now_left;
		if (turns_without_progress == STALL_TURNS) {
			end->alive = NULL;
			return WAYLAND_END_STALLED;
		}
		wl_event_loop_dispatch(end->loop, 0);
		if (!alive) {
			return WAYLAND_END_GONE;
		}
	}
}

static void socketpair_collect(struct wayland_end *base) {
	take_events((struct socketpair_end *)base);
}

const struct gate_transport gate_transport_socketpair = {
		.name = "socketpair",
		.attach = socketpair_attach,
		.attached = socketpair_attached,
		.detach = socketpair_detach,
		.serve = socketpair_serve,
		.collect = socketpair_collect,
};
