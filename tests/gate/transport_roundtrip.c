#include "tests/gate/transport_roundtrip.h"
#include "scheduler/log.h"
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-core.h>

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
					#cond); \
			_exit(1); \
		} \
	} while (0)

static bool warning_logged;
static int refusals_logged;

__attribute__((format(printf, 2, 0))) static void capture_log(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	char line[1024];
	vsnprintf(line, sizeof(line), fmt, args);
	fprintf(stderr, "server: %s\n", line);
	if (strstr(line, "warning:") != NULL) {
		warning_logged = true;
	}
	if (strstr(line, "does not emulate") != NULL) {
		refusals_logged++;
	}
}

static int handle_ready(int fd, uint32_t mask, void *data) {
	return 0;
}

/* Whether the callback's done came back: object 2, opcode 0. */
static bool read_done(int fd) {
	uint32_t buf[256];
	ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
	for (ssize_t at = 0; at + 8 <= n;) {
		uint32_t size = buf[at / 4 + 1] >> 16;
		if (buf[at / 4] == 2 && (buf[at / 4 + 1] & 0xffff) == 0) {
			return true;
		}
		CHECK(size >= 8);
		at += size;
	}
	return false;
}

const char *transport_roundtrip(
		enum gate_transport_choice choice, bool *warned) {
	sched_log_init(capture_log);
	warning_logged = false;
	struct wl_display *display = wl_display_create();
	CHECK(display != NULL);
	struct gate_config config;
	gate_config_default(&config);
	config.transport = choice;
	struct gate *gate = gate_create(display, &config);
	*warned = warning_logged;
	if (gate == NULL) {
		wl_display_destroy(display);
		sched_log_init(NULL);
		return NULL;
	}
	const char *name = gate_transport_name(gate);

	/* Always readable: no turn of the loop waits. */
	int ready = eventfd(1, EFD_CLOEXEC);
	CHECK(ready >= 0);
	struct wl_event_source *source =
			wl_event_loop_add_fd(wl_display_get_event_loop(display), ready,
					WL_EVENT_READABLE, handle_ready, NULL);
	CHECK(source != NULL);

	int pair[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
	CHECK(gate_adopt(gate, pair[1]) != NULL);
	uint32_t sync[3] = {1, 12 << 16 | 0, 2};
	CHECK(write(pair[0], sync, sizeof(sync)) == sizeof(sync));
	bool done = false;
	for (int i = 0; i < 10000 && !done; i++) {
		gate_iterate(gate);
		done = read_done(pair[0]);
	}
	CHECK(done);

	close(pair[0]);
	for (int i = 0; i < 1000 && gate_connection_count(gate) > 0; i++) {
		gate_iterate(gate);
	}
	CHECK(gate_connection_count(gate) == 0);
	wl_event_source_remove(source);
	close(ready);
	gate_destroy(gate);
	wl_display_destroy(display);
	sched_log_init(NULL);
	return name;
}

static bool is(const char *name, const char *want) {
	return name != NULL && strcmp(name, want) == 0;
}

void transport_check_with_shim(void) {
	bool warned;
	CHECK(is(transport_roundtrip(GATE_TRANSPORT_AUTO, &warned), "memory") &&
			!warned);
	CHECK(is(transport_roundtrip(GATE_TRANSPORT_MEMORY, &warned), "memory"));
	CHECK(is(transport_roundtrip(GATE_TRANSPORT_SOCKETPAIR, &warned),
			"socketpair"));
}

void transport_check_without_shim(void) {
	bool warned;
	CHECK(is(transport_roundtrip(GATE_TRANSPORT_AUTO, &warned), "socketpair") &&
			warned);
	CHECK(transport_roundtrip(GATE_TRANSPORT_MEMORY, &warned) == NULL);
	CHECK(is(transport_roundtrip(GATE_TRANSPORT_SOCKETPAIR, &warned),
			"socketpair"));
}

void transport_check_refusals(void) {
	sched_log_init(capture_log);
	refusals_logged = 0;
	struct wl_display *display = wl_display_create();
	CHECK(display != NULL);
	struct gate_config config;
	gate_config_default(&config);
	config.transport = GATE_TRANSPORT_MEMORY;
	struct gate *gate = gate_create(display, &config);
	CHECK(gate != NULL);
	int pair[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
	struct wl_client *client = gate_adopt(gate, pair[1]);
	CHECK(client != NULL);
	/* libwayland's end of it, served from memory. */
	int end = wl_client_get_fd(client);
	char byte = 0;
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	for (int i = 0; i < 2; i++) {
		errno = 0;
		CHECK(recvmsg(end, &msg, MSG_DONTWAIT | MSG_PEEK) == -1 &&
				errno == EOPNOTSUPP);
		errno = 0;
		CHECK(sendmsg(end, &msg, MSG_DONTWAIT | MSG_OOB) == -1 &&
				errno == EOPNOTSUPP);
	}
	CHECK(refusals_logged == 1);
	/* What it does emulate still answers: nothing is released. */
	errno = 0;
	CHECK(recvmsg(end, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) == -1 &&
			errno == EAGAIN);
	close(pair[0]);
	wl_client_destroy(client);
	gate_destroy(gate);
	wl_display_destroy(display);
	sched_log_init(NULL);
}
