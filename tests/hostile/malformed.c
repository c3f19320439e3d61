/* Malformed input, checked for parity with libwayland. */
#include "scheduler/gate/connection.h"
#include "tests/common/raw_wire.h"
#include "tests/hostile/hostile.h"
#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server.h>

/* --- malformed input ---------------------------------------------------- */

static void send_words(int fd, const struct hostile *hostile) {
	int fds[253];
	for (int i = 0; i < hostile->nfds; i++) {
		fds[i] = STDERR_FILENO;
	}
	raw_send(fd, hostile->words, hostile->len, fds, hostile->nfds);
}

/* More fds than libwayland's ring holds, one per sync. */
static void send_fd_per_sync(int fd, const struct hostile *hostile) {
	int out = STDERR_FILENO;
	for (uint32_t i = 0; i < 2000; i++) {
		uint32_t msg[3];
		put_header(msg, 1, sizeof(msg), 0);
		msg[2] = 3;
		if (!raw_send(fd, msg, sizeof(msg), &out, 1)) {
			return;
		}
	}
}

/* Zero-length sendmsgs, with and without fds, between real requests. */
void send_empty(int fd, const struct hostile *hostile) {
	int out = STDERR_FILENO;
	for (int i = 0; i < 2000; i++) {
		raw_send(fd, "", 0, i % 2 ? &out : NULL, i % 2);
		if (i % 100 == 0) {
			raw_sync(fd, 3);
		}
	}
}

/* A request dribbled one byte per read. */
void send_dribble(int fd, const struct hostile *hostile) {
	uint8_t stream[12 * 50];
	for (uint32_t i = 0; i < 50; i++) {
		uint32_t msg[3];
		put_header(msg, 1, sizeof(msg), 0);
		msg[2] = 3;
		memcpy(stream + 12 * i, msg, sizeof(msg));
	}
	for (size_t i = 0; i < sizeof(stream); i++) {
		raw_send(fd, stream + i, 1, NULL, 0);
		usleep(100);
	}
}

/*
 * An invalid request, then a burst of syncs in the same write: the
 * server stops at the first and closes with the burst still queued.
 */
static void send_error_then_burst(int fd, const struct hostile *hostile) {
	enum { SYNCS = 8000 };
	uint32_t *stream = calloc(1, hostile->len + SYNCS * 12);
	CHECK(stream != NULL);
	memcpy(stream, hostile->words, hostile->len);
	for (uint32_t i = 0; i < SYNCS; i++) {
		uint32_t *msg = stream + hostile->len / sizeof(uint32_t) + 3 * i;
		put_header(msg, 1, 12, 0);
		msg[2] = 3 + i;
	}
	raw_send(fd, stream, hostile->len + SYNCS * 12, NULL, 0);
	free(stream);
}

/* Until the server's end is closed: its hangup, not a sleep. */
static void wait_closed(int fd) {
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLRDHUP};
		CHECK(poll(&pfd, 1, 10000) == 1);
		if (pfd.revents & (POLLRDHUP | POLLHUP)) {
			return;
		}
	}
}

static void hostile_body(const void *data) {
	const struct hostile *hostile = data;
	int fd = raw_connect();
	/* A good request first: it must still be answered. */
	raw_sync(fd, 2);
	hostile->send(fd, hostile);
	if (hostile->hang_up) {
		close(fd);
		_exit(0);
	}
	if (hostile->sends_after_close) {
		wait_closed(fd);
		uint32_t msg[3];
		put_header(msg, 1, sizeof(msg), 0);
		msg[2] = 9000;
		ssize_t sent = send(fd, msg, sizeof(msg), MSG_NOSIGNAL);
		int err = errno;
		if (sent >= 0 || err != EPIPE) {
			fprintf(stderr,
					"%s: a send after the close gave %zd (%s), "
					"not EPIPE\n",
					hostile->name, sent, strerror(err));
		}
		CHECK(sent < 0 && err == EPIPE);
	}
	struct raw_events events = {0};
	if (hostile->survives) {
		/* Still served after the odd input: a last sync comes back. */
		CHECK(raw_sync(fd, 4));
		raw_read(fd, &events, 4);
		CHECK(events.last_done == 4);
		CHECK(!events.error);
		shutdown(fd, SHUT_WR);
	}
	raw_read(fd, &events, 0);
	fprintf(stderr, "%s: error %d code %u \"%s\", %d callbacks\n",
			hostile->name, events.error, events.error_code,
			events.error_message, events.done_count);
	CHECK(events.done_count >= 1 || hostile->drops_unanswered);
	if (hostile->expect_code == NO_ERROR) {
		CHECK(!events.error);
	} else if (hostile->expect_code != ANY_ERROR) {
		CHECK(events.error);
		CHECK(events.error_code == (uint32_t)hostile->expect_code);
	}
	if (hostile->expect_message) {
		CHECK(strstr(events.error_message, hostile->expect_message));
	}
	_exit(0);
}

/* In client mode: the one case to run against a running compositor. */
const char *client_only;

void run_hostile(struct hostile *hostile) {
	if (client_only) {
		if (strcmp(hostile->name, client_only) == 0) {
			hostile_body(hostile);
		}
		return;
	}
	fprintf(stderr, "--- %s\n", hostile->name);
	struct server server;
	server_init(&server);
	struct footprint before;
	footprint_take(&before);
	serve_beside_good(&server, hostile_body, hostile, 50);
	if (hostile->expect_log) {
		bool found = logged(hostile->expect_log) ||
				(hostile->expect_log_alt && logged(hostile->expect_log_alt));
		if (!found) {
			fprintf(stderr, "no \"%s\" in the server's log\n",
					hostile->expect_log);
		}
		CHECK(found);
	}
	footprint_check(&before, 8 * 1024);
	server_finish(&server);
}

static struct hostile bad_size(uint32_t size) {
	static char names[32][32];
	static int next;
	char *name = names[next++ % 32];
	snprintf(name, 32, "size-%u", size);
	struct hostile hostile = {
			.name = name,
			.send = send_words,
			.len = 16,
			.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD,
			.expect_message = "invalid message size",
			.expect_log = "invalid message size",
	};
	put_header(hostile.words, 1, size, 0);
	return hostile;
}

void case_malformed(void) {
	for (uint32_t size = 0; size < 12; size++) {
		if (size != 8) {
			struct hostile hostile = bad_size(size);
			run_hostile(&hostile);
		}
	}
	uint32_t sizes[] = {13, 14, 15, 4097, 4098, 4100, 65532, 65535};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct hostile hostile = bad_size(sizes[i]);
		run_hostile(&hostile);
	}

	/* The error reaches a client whose burst the server never read. */
	struct hostile burst = bad_size(4);
	burst.name = "error-then-burst";
	burst.send = send_error_then_burst;
	burst.sends_after_close = true;
	run_hostile(&burst);

	struct hostile unknown_object = {
			.name = "unknown-object",
			.send = send_words,
			.len = 8,
			.expect_code = WL_DISPLAY_ERROR_INVALID_OBJECT,
			.expect_message = "invalid object 77",
			.expect_log = "invalid object 77",
	};
	put_header(unknown_object.words, 77, 8, 0);
	run_hostile(&unknown_object);

	struct hostile bad_opcode = {
			.name = "opcode-past-interface",
			.send = send_words,
			.len = 8,
			.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD,
			.expect_message = "invalid method 9",
			.expect_log = "invalid method 9",
	};
	put_header(bad_opcode.words, 1, 8, 9);
	run_hostile(&bad_opcode);

	/* wl_display.sync without its new_id: a size valid for the gate. */
	struct hostile short_args = {
			.name = "missing-arguments",
			.send = send_words,
			.len = 8,
			.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD,
			.expect_message = "invalid arguments",
			.expect_log = "invalid arguments",
	};
	put_header(short_args.words, 1, 8, 0);
	run_hostile(&short_args);

	/* A new_id that is not the next free one. */
	struct hostile bad_id = {
			.name = "bad-new-id",
			.send = send_words,
			.len = 12,
			.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD,
			.expect_message = "invalid arguments",
			.expect_log = "not a valid new object id",
	};
	put_header(bad_id.words, 1, 12, 0);
	bad_id.words[2] = 1000;
	run_hostile(&bad_id);

	struct hostile truncated = {
			.name = "truncated-then-hang-up",
			.send = send_words,
			.len = 10,
			.hang_up = true,
			.expect_log = "hung up",
	};
	put_header(truncated.words, 1, 12, 0);
	truncated.words[2] = 3;
	run_hostile(&truncated);

	struct hostile fds_hang_up = {
			.name = "hang-up-with-fds-in-flight",
			.send = send_words,
			.len = 6,
			.nfds = 3,
			.hang_up = true,
			.expect_log = "hung up",
	};
	put_header(fds_hang_up.words, 1, 12, 0);
	run_hostile(&fds_hang_up);

	struct hostile whole_fds_hang_up = {
			.name = "hang-up-after-a-request-with-fds",
			.send = send_words,
			.len = 12,
			.nfds = 3,
			.hang_up = true,
			.expect_log = "hung up",
	};
	put_header(whole_fds_hang_up.words, 1, 12, 0);
	whole_fds_hang_up.words[2] = 3;
	run_hostile(&whole_fds_hang_up);

	/* Like libwayland, fds on a request that takes none are kept unused. */
	struct hostile stray_fds = {
			.name = "fds-on-a-request-that-takes-none",
			.send = send_words,
			.len = 12,
			.nfds = 5,
			.survives = true,
			.expect_code = NO_ERROR,
	};
	put_header(stray_fds.words, 1, 12, 0);
	stray_fds.words[2] = 3;
	run_hostile(&stray_fds);

	struct hostile fds_28 = stray_fds;
	fds_28.name = "28-fds-on-one-request";
	fds_28.nfds = 28;
	run_hostile(&fds_28);

	struct hostile fds_253 = stray_fds;
	fds_253.name = "253-fds-on-one-request";
	fds_253.nfds = 253;
	fds_253.survives = false;
	fds_253.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD;
	fds_253.expect_message = "fds in one message";
	fds_253.expect_log = "fds in one message";
	run_hostile(&fds_253);

	struct hostile fd_per_sync = {
			.name = "more-fds-than-libwayland-holds",
			.send = send_fd_per_sync,
			.expect_code = ANY_ERROR,
			/* The gate's cap on queued fds, or libwayland's full fd ring. */
			.expect_log = "disconnect",
			.expect_log_alt = "failed to read client connection",
			.drops_unanswered = true,
	};
	run_hostile(&fd_per_sync);
}
