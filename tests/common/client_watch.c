#include "tests/common/client_watch.h"
#include "scheduler/gate/client_stats.h"
#include "tests/common/gate_harness.h"
#include <string.h>
#include <sys/types.h>

static void handle_watched_destroy(struct wl_listener *listener, void *data) {
	struct client_watch *watch = wl_container_of(listener, watch, destroy);
	CHECK(data == watch->conn);
	/* Still readable while its wl_client is being destroyed. */
	pid_t pid;
	CHECK(gate_connection_get_client(data) != NULL);
	CHECK(gate_connection_get_process(data, &pid, NULL) && pid > 0);
	struct gate_client_stats stats;
	gate_client_stats_read(data, &stats);
	watch->requests = stats.io.requests;
	watch->batches = stats.io.batches;
	wl_list_remove(&watch->destroy.link);
	watch->conn = NULL;
	watch->destroyed++;
}

static void handle_new_connection(struct wl_listener *listener, void *data) {
	struct client_watch *watch =
			wl_container_of(listener, watch, new_connection);
	watch->conn = data;
	watch->created++;
	watch->destroy.notify = handle_watched_destroy;
	gate_connection_add_destroy_listener(data, &watch->destroy);
}

void client_watch_start(struct client_watch *watch, struct gate *gate) {
	memset(watch, 0, sizeof(*watch));
	watch->new_connection.notify = handle_new_connection;
	gate_add_new_connection_listener(gate, &watch->new_connection);
}

void client_watch_stop(struct client_watch *watch) {
	wl_list_remove(&watch->new_connection.link);
}
