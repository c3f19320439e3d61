#include "scheduler/gate/ungated.h"
#include "scheduler/gate/gate_internal.h"
#include "scheduler/log.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct gate_ungated {
	struct gate *gate;
	struct wl_client *client;
	struct wl_list link; /* gate.ungated */
	/* libwayland queued events for it since its last flush. */
	bool unflushed;
	/*
	 * While its socket is full: a dup of libwayland's fd, watched for
	 * room (the loop's epoll already holds libwayland's own fd, and
	 * cannot take the same one twice). -1 and NULL when not.
	 */
	int watch_fd;
	struct wl_event_source *writable;
	struct wl_listener client_destroy;
};

static void unwatch(struct gate_ungated *ungated) {
	if (ungated->writable) {
		wl_event_source_remove(ungated->writable);
		ungated->writable = NULL;
	}
	if (ungated->watch_fd >= 0) {
		close(ungated->watch_fd);
		ungated->watch_fd = -1;
	}
}

static void ungated_destroy(struct gate_ungated *ungated) {
	unwatch(ungated);
	wl_list_remove(&ungated->client_destroy.link);
	wl_list_remove(&ungated->link);
	free(ungated);
}

/* Before libwayland closes its fd: the dup must not keep the socket open. */
static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct gate_ungated *ungated =
			wl_container_of(listener, ungated, client_destroy);
	ungated_destroy(ungated);
}

static void flush(struct gate_ungated *ungated);

static int handle_writable(int fd, uint32_t mask, void *data) {
	struct gate_ungated *ungated = data;
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		/* libwayland's own watch sees it too, and drops the client. */
		unwatch(ungated);
		return 0;
	}
	flush(ungated);
	return 0;
}

/*
 * Whether the socket may have stopped the flush: not writable. Where it is
 * merely more than a quarter full (unix sockets poll writable below that),
 * the watch costs one wakeup for nothing.
 */
static bool socket_full(struct gate_ungated *ungated) {
	struct pollfd pfd = {
			.fd = wl_client_get_fd(ungated->client),
			.events = POLLOUT,
	};
	int n;
	do {
		n = poll(&pfd, 1, 0);
	} while (n < 0 && errno == EINTR);
	return n == 0;
}

static void watch(struct gate_ungated *ungated) {
	if (ungated->writable) {
		return;
	}
	struct gate *gate = ungated->gate;
	ungated->watch_fd =
			fcntl(wl_client_get_fd(ungated->client), F_DUPFD_CLOEXEC, 0);
	if (ungated->watch_fd >= 0) {
		ungated->writable = wl_event_loop_add_fd(gate->loop, ungated->watch_fd,
				WL_EVENT_WRITABLE, handle_writable, ungated);
	}
	if (!ungated->writable) {
		/* libwayland's walk (the next flush_clients) watches the
		 * socket itself. */
		sched_log(SCHED_LOG_ERROR,
				"cannot watch an ungated client's full socket: %s",
				strerror(errno));
		unwatch(ungated);
		gate->ungated_lost = true;
	}
}

static void flush(struct gate_ungated *ungated) {
	ungated->unflushed = false;
	wl_client_flush(ungated->client);
	if (socket_full(ungated)) {
		watch(ungated);
	} else {
		unwatch(ungated);
	}
}

static struct gate_ungated *find(struct gate *gate, struct wl_client *client) {
	struct gate_ungated *ungated;
	wl_list_for_each(ungated, &gate->ungated, link) {
		if (ungated->client == client) {
			return ungated;
		}
	}
	return NULL;
}

/*
 * Each client the gate is not making is kept track of from the start: a
 * client's destroy listeners are called before libwayland destroys its
 * objects, whose destructors may still queue events for it, and one added
 * then would never be called.
 */
static void follow(struct gate *gate, struct wl_client *client) {
	struct gate_ungated *ungated = calloc(1, sizeof(*ungated));
	if (!ungated) {
		sched_log(SCHED_LOG_ERROR,
				"out of memory: every client is flushed from now on");
		gate->ungated_untracked = true;
		return;
	}
	ungated->gate = gate;
	ungated->client = client;
	ungated->watch_fd = -1;
	ungated->client_destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(client, &ungated->client_destroy);
	wl_list_insert(&gate->ungated, &ungated->link);
}

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct gate *gate = wl_container_of(listener, gate, client_created);
	if (!gate->creating_client) {
		follow(gate, data);
	}
}

static void handle_display_destroy(struct wl_listener *listener, void *data) {
	struct gate *gate =
			wl_container_of(listener, gate, ungated_display_destroy);
	gate_ungated_finish(gate);
}

void gate_ungated_init(struct gate *gate) {
	wl_list_init(&gate->ungated);
	gate->client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(
			gate->display, &gate->client_created);
	/* Those made before the gate, once. */
	struct wl_client *client;
	wl_client_for_each(client, wl_display_get_client_list(gate->display)) {
		follow(gate, client);
	}
	gate->ungated_display_destroy.notify = handle_display_destroy;
	wl_display_add_destroy_listener(
			gate->display, &gate->ungated_display_destroy);
}

void gate_ungated_note(struct gate *gate, struct wl_client *client) {
	struct gate_ungated *ungated = find(gate, client);
	if (ungated) {
		ungated->unflushed = true;
	} else if (gate->ungated_untracked) {
		gate->ungated_lost = true;
	}
	/* Else it is being destroyed: what it is sent now never leaves. */
}

void gate_ungated_flush(struct gate *gate) {
	struct gate_ungated *ungated;
	wl_list_for_each(ungated, &gate->ungated, link) {
		if (ungated->unflushed) {
			flush(ungated);
		}
	}
}

void gate_ungated_finish(struct gate *gate) {
	if (!gate->client_created.notify) {
		return;
	}
	struct gate_ungated *ungated, *tmp;
	wl_list_for_each_safe(ungated, tmp, &gate->ungated, link) {
		ungated_destroy(ungated);
	}
	wl_list_remove(&gate->client_created.link);
	wl_list_remove(&gate->ungated_display_destroy.link);
	gate->client_created.notify = NULL;
}
