/* What all clients together may make the server hold (limits.h). */
#include "scheduler/gate/limits.h"
#include "tests/common/raw_wire.h"
#include "tests/hostile/hostile.h"
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Clients that connect all at once are taken a few at a wakeup: the
 * others wait in the backlog while the loop serves the rest.
 */
void case_accept_burst(void) {
	fprintf(stderr, "--- accept-burst\n");
	struct server server;
	server_init(&server);
	int fds[40];
	for (int i = 0; i < 40; i++) {
		fds[i] = raw_connect();
	}
	struct wl_event_loop *loop = wl_display_get_event_loop(server.display);
	CHECK(wl_event_loop_dispatch(loop, 1000) >= 0);
	size_t first = server.gate->connection_count;
	fprintf(stderr, "first wakeup took %zu of 40 clients\n", first);
	CHECK(first == LIMITS_ACCEPT_PER_WAKEUP);
	for (int i = 0; i < 100 && server.gate->connection_count < 40; i++) {
		CHECK(wl_event_loop_dispatch(loop, 1000) >= 0);
	}
	CHECK(server.gate->connection_count == 40);
	for (int i = 0; i < 40; i++) {
		close(fds[i]);
	}
	serve_until_idle(&server);
	server_finish(&server);
}

/* Holds `count` connections, then reports whether one more was refused. */
static void over_the_cap_body(const void *data) {
	int count = *(const int *)data;
	int fds[64];
	CHECK(count <= 64);
	for (int i = 0; i < count; i++) {
		fds[i] = raw_connect();
		CHECK(raw_sync(fds[i], 2));
		struct raw_events events = {0};
		raw_read(fds[i], &events, 2);
		CHECK(!events.error && events.last_done == 2);
	}
	/* One more: told so, and hung up on. */
	int extra = raw_connect();
	struct raw_events events = {0};
	raw_read(extra, &events, 0);
	fprintf(stderr, "client %d: error %d \"%s\"\n", count + 1, events.error,
			events.error_message);
	CHECK(events.error);
	CHECK(strstr(events.error_message, "too many clients"));
	close(extra);
	/* Once one goes (and the server has seen it go), another may come. */
	close(fds[0]);
	for (int tries = 0;; tries++) {
		CHECK(tries < 500);
		int fd = raw_connect();
		struct raw_events again = {0};
		if (raw_sync(fd, 2)) {
			raw_read(fd, &again, 2);
		}
		close(fd);
		if (!again.error && again.last_done == 2) {
			break;
		}
		usleep(10000);
	}
	_exit(0);
}

/* No more clients than the cap at once; the one past it is told why. */
void case_max_clients(void) {
	fprintf(stderr, "--- max-clients\n");
	struct gate_config config;
	gate_config_default(&config);
	config.max_clients = 8;
	struct server server;
	server_init_with(&server, &config);
	int count = 8;
	pid_t pids[1] = {spawn(over_the_cap_body, &count)};
	int status[1];
	serve_until_exit(&server, pids, status, 1);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	CHECK(logged("refusing a client: 8 clients connected"));
	serve_until_idle(&server);
	server_finish(&server);
}

/*
 * Clients that do not read, each under its own 1 MiB cap, may not hold
 * more than the total between them: the one holding the most goes, the
 * reader is served throughout.
 */
void case_total_queued(void) {
	fprintf(stderr, "--- total-queued\n");
	struct gate_config config;
	gate_config_default(&config);
	config.total_queued_cap = 2 * config.event_backlog_cap;
	struct server server;
	server_init_with(&server, &config);
	int roundtrips = 200;
	pid_t pids[4] = {
			spawn(never_reads_body, NULL),
			spawn(never_reads_body, NULL),
			spawn(never_reads_body, NULL),
			spawn(good_body, &roundtrips),
	};
	int status[4];
	serve_until_exit(&server, pids, status, 4);
	for (int i = 0; i < 4; i++) {
		CHECK(WIFEXITED(status[i]) && WEXITSTATUS(status[i]) == 0);
	}
	CHECK(logged("queued bytes together, over"));
	serve_until_idle(&server);
	CHECK(server.gate->queued_bytes == 0 && server.gate->queued_fds == 0);
	server_finish(&server);
}
