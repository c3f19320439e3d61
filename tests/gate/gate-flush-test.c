/*
 * Events reach every client with no walk over all of them: the gate
 * flushes only the clients libwayland queued events for, gated or not,
 * and comes back to a flush their socket refused. libwayland's walk is
 * counted here and must never run.
 */
#include "tests/common/client_watch.h"
#include "tests/common/gate_harness.h"
#include <dlfcn.h>
#include <inttypes.h>
#include <linux/sockios.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server.h>

/*
 * libwayland's walk over every client, counted: the gate calls this one,
 * linked ahead of libwayland's, and it must have no need to.
 */
static int walks;

typedef void (*flush_clients_func)(struct wl_display *);

void wl_display_flush_clients(struct wl_display *display) {
	static flush_clients_func real;
	if (!real) {
		real = (flush_clients_func)dlsym(RTLD_NEXT, "wl_display_flush_clients");
		CHECK(real);
	}
	walks++;
	real(display);
}

/* Serves until fd has something to read; fails after 10 s. */
static void serve_until_readable(struct server *server, int fd) {
	time_t deadline = time(NULL) + 10;
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 0) == 1) {
			return;
		}
		CHECK(time(NULL) < deadline);
		gate_iterate(server->gate);
	}
}

/* Counts the events libwayland queues for one client. */
struct event_watch {
	struct wl_client *client;
	int events;
};

static void watch_events(void *data, enum wl_protocol_logger_type type,
		const struct wl_protocol_logger_message *message) {
	struct event_watch *watch = data;
	if (type == WL_PROTOCOL_LOGGER_EVENT &&
			wl_resource_get_client(message->resource) == watch->client) {
		watch->events++;
	}
}

/*
 * Connects, is answered, then stays until the server writes to or closes
 * the pipe in data (its two ends): gone with the server if it fails.
 */
static void pipe_waiting_client(const void *data) {
	const int *go = data;
	close(go[1]);
	int fd = raw_connect();
	CHECK(raw_sync(fd, 2));
	struct raw_events events = {0};
	raw_read(fd, &events, 2);
	char byte;
	CHECK(read(go[0], &byte, 1) >= 0);
	_exit(0);
}

/* What libwayland has written into its socket and no one has read yet. */
static int unread_bytes(int fd) {
	int queued = 0;
	CHECK(ioctl(fd, SIOCOUTQ, &queued) == 0);
	return queued;
}

#define STALL_ROUND_EVENTS 100
#define DELETE_ID_BYTES 12

/* Posts wl_callback.done on the resource in its data as it goes. */
static void send_done_on_destroy(struct wl_resource *resource) {
	wl_callback_send_done(wl_resource_get_user_data(resource), 0);
}

/*
 * A client libwayland has that the gate does not, as wlroots makes
 * Xwayland: its events go out, with no walk over every client, beside a
 * gated one, even those a full socket refused once it reads again; and
 * once it is destroyed, even with events queued, and even with events
 * queued for it as its objects are destroyed, the gate holds nothing of
 * it (ASan sees any use after).
 */
static void case_ungated(void) {
	struct server server = {0};
	server_init(&server);
	int go[2];
	CHECK(pipe(go) == 0);
	pid_t pids[1] = {spawn(pipe_waiting_client, go)};
	int sv[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	struct wl_client *ungated = wl_client_create(server.display, sv[0]);
	CHECK(ungated && gate_connection_from_client(ungated) == NULL);
	walks = 0;

	CHECK(raw_sync(sv[1], 2));
	serve_until_readable(&server, sv[1]);
	uint32_t answer[6];
	CHECK(read(sv[1], answer, sizeof(answer)) == sizeof(answer));
	/* wl_callback@2.done, then wl_display.delete_id(2). */
	CHECK(answer[0] == 2 && answer[1] == (12u << 16 | WL_CALLBACK_DONE));
	CHECK(answer[3] == 1 && answer[5] == 2);

	/*
	 * Its socket full, unread: the gate's flushes are refused until it
	 * reads, and must go on once it does, with no new event to prompt
	 * them. Rounds as in case_stalled_flush.
	 */
	int small = 1;
	CHECK(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)) == 0);
	struct wl_resource *display = wl_client_get_object(ungated, 1);
	int posted = 0;
	bool refused = false;
	for (int round = 0; round < 40 && !refused; round++) {
		for (int i = 0; i < STALL_ROUND_EVENTS; i++) {
			wl_resource_post_event(
					display, WL_DISPLAY_DELETE_ID, 1000 + posted++);
		}
		int before = unread_bytes(sv[0]);
		gate_iterate(server.gate);
		refused = unread_bytes(sv[0]) == before;
	}
	CHECK(refused);
	size_t expected = (size_t)posted * DELETE_ID_BYTES, got = 0;
	time_t deadline = time(NULL) + 10;
	while (got < expected) {
		CHECK(time(NULL) < deadline);
		gate_iterate(server.gate);
		static uint8_t buf[65536];
		ssize_t n;
		while ((n = recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			got += n;
		}
	}
	fprintf(stderr,
			"ungated: %d events posted past a full socket, %zu bytes "
			"read\n",
			posted, got);
	CHECK(got == expected);

	/* Events queued, not yet flushed, as it is destroyed. */
	struct event_watch watch = {.client = ungated};
	struct wl_protocol_logger *logger = wl_display_add_protocol_logger(
			server.display, watch_events, &watch);
	CHECK(logger);
	CHECK(raw_sync(sv[1], 3));
	deadline = time(NULL) + 10;
	while (watch.events == 0) {
		CHECK(time(NULL) < deadline);
		gate_iterate(server.gate);
	}
	wl_protocol_logger_destroy(logger);
	/* Objects go in the order of their ids: first's destructor sends
	 * later its done. */
	struct wl_resource *first =
			wl_resource_create(ungated, &wl_callback_interface, 1, 0);
	struct wl_resource *later =
			wl_resource_create(ungated, &wl_callback_interface, 1, 0);
	CHECK(first && later &&
			wl_resource_get_id(first) < wl_resource_get_id(later));
	wl_resource_set_implementation(first, NULL, later, send_done_on_destroy);
	wl_client_destroy(ungated);
	CHECK(wl_list_empty(&server.gate->ungated));
	for (int i = 0; i < 5; i++) {
		gate_iterate(server.gate);
	}

	CHECK(write(go[1], "x", 1) == 1);
	int status[1];
	serve_until_exit(&server, pids, status, 1);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	serve_until_idle(&server);
	fprintf(stderr, "walks over every client: %d\n", walks);
	CHECK(walks == 0);
	close(sv[1]);
	close(go[0]);
	close(go[1]);
	server_finish(&server);
}

/*
 * Reads until the server closes, then writes how many bytes of events it
 * got into the pipe in data.
 */
static void counting_client(const void *data) {
	int out = *(const int *)data;
	int fd = raw_connect();
	CHECK(raw_sync(fd, 2));
	struct raw_events events = {0};
	raw_read(fd, &events, 2);
	struct raw_events rest = {0};
	raw_read(fd, &rest, 0);
	size_t bytes = events.bytes + rest.bytes;
	CHECK(write(out, &bytes, sizeof(bytes)) == sizeof(bytes));
	_exit(0);
}

/*
 * A flush that libwayland's socket refused in part (EAGAIN) goes on once
 * the gate has drained that socket, with no walk over every client:
 * libwayland's wl_client_flush, unlike that walk, does not wait for room
 * itself. The socket is shrunk, and filled by flushes of this test's own
 * between two of the gate's turns, until one is refused: what it left in
 * libwayland's buffer must still reach the client.
 */
static void case_stalled_flush(void) {
	struct server server = {0};
	server_init(&server);
	int out[2];
	CHECK(pipe(out) == 0);
	struct client_watch watch;
	client_watch_start(&watch, server.gate);
	pid_t pids[1] = {spawn(counting_client, &out[1])};
	time_t deadline = time(NULL) + 30;
	while (watch.conn == NULL || watch.conn->stats.event_bytes == 0) {
		CHECK(time(NULL) < deadline);
		gate_iterate(server.gate);
	}
	struct gate_connection *conn = watch.conn;
	uint64_t sent_before = conn->stats.event_bytes;
	struct wl_client *client = conn->client;
	struct wl_resource *display = wl_client_get_object(client, 1);
	CHECK(display);
	int fd = wl_client_get_fd(client);
	int small = 1; /* the kernel's least */
	CHECK(setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)) == 0);
	walks = 0;

	/*
	 * Rounds small enough that, refused, they fit libwayland's 4 KiB
	 * buffer: a write that finds it full and its socket full too would
	 * drop the client instead.
	 */
	int posted = 0;
	bool refused = false;
	for (int round = 0; round < 40 && !refused; round++) {
		for (int i = 0; i < STALL_ROUND_EVENTS; i++) {
			wl_resource_post_event(
					display, WL_DISPLAY_DELETE_ID, 1000 + posted++);
		}
		int before = unread_bytes(fd);
		wl_client_flush(client);
		refused = unread_bytes(fd) == before;
	}
	/* Through memory, libwayland's writes never reach its socket: each
	 * flush reads as refused, and is not. */
	bool memory = strcmp(gate_transport_name(server.gate), "memory") == 0;
	CHECK(refused);
	fprintf(stderr, "%d events posted, the socket refused the last %s\n",
			posted, memory ? "(memory: never written)" : "flush");

	uint64_t expected = (uint64_t)posted * DELETE_ID_BYTES;
	deadline = time(NULL) + 10;
	while (conn->stats.event_bytes - sent_before < expected) {
		CHECK(time(NULL) < deadline);
		gate_iterate(server.gate);
	}
	CHECK(conn->stats.event_bytes - sent_before == expected);
	wl_client_destroy(client);
	int status[1];
	serve_until_exit(&server, pids, status, 1);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	size_t got = 0;
	CHECK(read(out[0], &got, sizeof(got)) == sizeof(got));
	fprintf(stderr, "client got %zu bytes of events, %" PRIu64 " sent\n", got,
			sent_before + expected);
	CHECK(got == sent_before + expected);
	fprintf(stderr, "walks over every client: %d\n", walks);
	CHECK(walks == 0);
	client_watch_stop(&watch);
	close(out[0]);
	close(out[1]);
	server_finish(&server);
}

int main(int argc, char *argv[]) {
	signal(SIGPIPE, SIG_IGN);
	if (argc != 2) {
		fprintf(stderr, "usage: gate-flush-test CASE\n");
		return 2;
	}
	const char *name = argv[1];
	if (strcmp(name, "ungated") == 0) {
		case_ungated();
	} else if (strcmp(name, "stalled-flush") == 0) {
		case_stalled_flush();
	} else {
		fprintf(stderr, "unknown case %s\n", name);
		return 2;
	}
	fprintf(stderr, "%s: ok\n", name);
	return 0;
}
