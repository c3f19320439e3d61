/*
 * Connects to the compositor, makes sure it accepted (a wl_display.sync
 * answered), then hands the connection on as WAYLAND_SOCKET:
 *
 *   fw-handover exec PROGRAM [ARGS...]  runs PROGRAM in this very process
 *                                       (a setuid PROGRAM changes its uids)
 *   fw-handover fork PROGRAM [ARGS...]  runs PROGRAM in a child and exits
 *
 * Prints "connected PID" (the process that connected) first, and with
 * fork "child PID", on stdout. The hint tests check that hints reach only
 * a process of the connecting uid that started before the accept.
 */
#include "tests/common/raw_wire.h"
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* wl_callback.done and wl_display.delete_id, 12 bytes each. */
#define SYNC_ANSWER_BYTES 24

static int connect_and_sync(void) {
	const char *dir = getenv("XDG_RUNTIME_DIR");
	const char *name = getenv("WAYLAND_DISPLAY");
	if (dir == NULL || name == NULL) {
		fprintf(stderr, "fw-handover: XDG_RUNTIME_DIR, WAYLAND_DISPLAY?\n");
		return -1;
	}
	char path[108];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = raw_wire_connect(path);
	if (fd < 0) {
		perror("fw-handover: connect");
		return -1;
	}
	/* id 2, which the compositor frees again before PROGRAM starts. */
	uint32_t sync[3];
	raw_wire_header(sync, 1, sizeof(sync), 0);
	sync[2] = 2;
	if (raw_wire_send(fd, sync, sizeof(sync), NULL, 0) != sizeof(sync)) {
		perror("fw-handover: send");
		return -1;
	}
	uint8_t buf[SYNC_ANSWER_BYTES];
	size_t got = 0;
	while (got < sizeof(buf)) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 30000) != 1) {
			fprintf(stderr, "fw-handover: no answer\n");
			return -1;
		}
		ssize_t n = read(fd, buf + got, sizeof(buf) - got);
		if (n <= 0) {
			fprintf(stderr, "fw-handover: hung up on\n");
			return -1;
		}
		got += (size_t)n;
	}
	return fd;
}

int main(int argc, char *argv[]) {
	if (argc < 3 ||
			(strcmp(argv[1], "exec") != 0 && strcmp(argv[1], "fork") != 0)) {
		fprintf(stderr, "usage: fw-handover exec|fork PROGRAM [ARGS...]\n");
		return 2;
	}
	int fd = connect_and_sync();
	if (fd < 0) {
		return 1;
	}
	if (fcntl(fd, F_SETFD, 0) != 0) {
		return 1;
	}
	char value[16];
	snprintf(value, sizeof(value), "%d", fd);
	setenv("WAYLAND_SOCKET", value, 1);
	printf("connected %d\n", (int)getpid());
	fflush(stdout);
	if (strcmp(argv[1], "fork") == 0) {
		pid_t child = fork();
		if (child < 0) {
			return 1;
		}
		if (child > 0) {
			printf("child %d\n", (int)child);
			fflush(stdout);
			return 0;
		}
	}
	execv(argv[2], &argv[2]);
	perror("fw-handover: exec");
	return 127;
}
