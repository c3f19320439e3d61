/*
 * libFuzzer target for the gate end to end: one client's byte stream, with
 * fds, against a real libwayland display (with wl_shm) in this process.
 * Input: byte 0 picks how many fds ride on the first sendmsg (0 to 3) and
 * byte 1 where the stream is split into two sendmsgs, so that messages
 * arrive across reads; the rest is the stream. The client then hangs up.
 * Whatever the bytes, the gate must not crash, must disconnect the client
 * (or serve it and see it go), and must leave no fd behind.
 */
#include "scheduler/gate/gate.h"
#include "scheduler/log.h"
#include "tests/common/raw_wire.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct wl_display *display;
static struct gate *gate;
static int pool_fd = -1;

static int count_fds(void) {
	int count = 0;
	DIR *dir = opendir("/proc/self/fd");
	if (!dir) {
		abort();
	}
	while (readdir(dir)) {
		count++;
	}
	closedir(dir);
	return count;
}

__attribute__((format(printf, 2, 0))) static void quiet_sched_log(
		enum sched_log_importance importance, const char *fmt, va_list args) {
}

__attribute__((format(printf, 1, 0))) static void quiet_wl_log(
		const char *fmt, va_list args) {
}

/*
 * An fd that is always readable: no turn of the loop ever waits, and the
 * loop below checks for the client's end between turns. (A turn that drops
 * the last client would otherwise wait for the next event.)
 */
static int always_ready = -1;
static struct wl_event_source *always_ready_source;

static int handle_always_ready(int fd, uint32_t mask, void *data) {
	return 0;
}

static void setup(void) {
	sched_log_init(quiet_sched_log);
	wl_log_set_handler_server(quiet_wl_log);
	display = wl_display_create();
	if (!display || wl_display_init_shm(display) != 0) {
		abort();
	}
	struct gate_config config;
	gate_config_default(&config);
	gate = gate_create(display, &config);
	struct wl_event_loop *loop = wl_display_get_event_loop(display);
	always_ready = eventfd(1, EFD_CLOEXEC);
	if (!gate || always_ready < 0) {
		abort();
	}
	always_ready_source = wl_event_loop_add_fd(
			loop, always_ready, WL_EVENT_READABLE, handle_always_ready, NULL);
	pool_fd = memfd_create("fuzz-pool", MFD_CLOEXEC);
	if (!always_ready_source || pool_fd < 0 || ftruncate(pool_fd, 65536) != 0) {
		abort();
	}
}

static void send_part(int fd, const uint8_t *data, size_t len, int nfds) {
	int fds[3] = {pool_fd, pool_fd, pool_fd};
	/* The socket is non-blocking and takes far more than one input. */
	raw_wire_send(fd, data, len, fds, nfds);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (!display) {
		setup();
	}
	if (size < 2 || size > 16384) {
		return 0;
	}
	int nfds = data[0] % 4;
	size_t split = data[1];
	data += 2;
	size -= 2;
	if (split > size) {
		split = size;
	}

	int fds_before = count_fds();
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
				pair) != 0) {
		abort();
	}
	if (!gate_adopt(gate, pair[1])) {
		abort();
	}
	send_part(pair[0], data, split, nfds);
	send_part(pair[0], data + split, size - split, 0);
	shutdown(pair[0], SHUT_WR);

	/* Served or refused, the client must go once it hung up. */
	char sink[4096];
	for (int i = 0; i < 2000 && gate_connection_count(gate) > 0; i++) {
		gate_iterate(gate);
		while (read(pair[0], sink, sizeof(sink)) > 0) {
		}
	}
	if (gate_connection_count(gate) > 0) {
		fprintf(stderr, "gate-fuzz: the client was never disconnected\n");
		abort();
	}
	close(pair[0]);
	if (count_fds() != fds_before) {
		fprintf(stderr, "gate-fuzz: fds %d before, %d after\n", fds_before,
				count_fds());
		abort();
	}
	return 0;
}
