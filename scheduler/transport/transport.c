#include "scheduler/transport/transport.h"
#include "scheduler/log.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct wayland_end *wayland_end_create(size_t size,
		const struct gate_transport *transport, struct wayland_end_owner *owner,
		int flags, int pair[2]) {
	struct wayland_end *end = calloc(1, size);
	if (!end) {
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0, pair) < 0) {
		sched_log(SCHED_LOG_ERROR, "socketpair: %s", strerror(errno));
		free(end);
		return NULL;
	}
	end->transport = transport;
	end->owner = owner;
	return end;
}

void wayland_end_abandon(struct wayland_end *end, const int pair[2]) {
	close(pair[0]);
	close(pair[1]);
	free(end);
}
