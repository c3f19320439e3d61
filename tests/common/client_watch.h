#ifndef FAIRWAY_TESTS_COMMON_CLIENT_WATCH_H
#define FAIRWAY_TESTS_COMMON_CLIENT_WATCH_H

#include "scheduler/gate/gate.h"
#include <stdint.h>
#include <wayland-server.h>

/*
 * The gate's clients as a live view of them would follow them (gate.h):
 * the last one announced, how many came and went, and what the gate had
 * counted for one as it went.
 */
struct client_watch {
	struct gate_connection *conn; /* the last announced, until it goes */
	int created, destroyed;
	uint64_t requests; /* what the gate counted when it went */
	uint64_t batches;

	struct wl_listener new_connection;
	struct wl_listener destroy;
};

void client_watch_start(struct client_watch *watch, struct gate *gate);
/* Stops hearing of new clients. */
void client_watch_stop(struct client_watch *watch);

#endif
