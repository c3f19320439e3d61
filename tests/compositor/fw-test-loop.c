#include "fw-test-loop.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

enum fw_test_loop_result fw_test_loop_turn(
		struct wl_display *display, int fd, int timeout_ms) {
	while (wl_display_prepare_read(display) != 0) {
		if (wl_display_dispatch_pending(display) < 0) {
			return FW_TEST_LOOP_LOST;
		}
	}
	fflush(stdout);
	if (wl_display_flush(display) < 0 && errno != EAGAIN) {
		wl_display_cancel_read(display);
		return FW_TEST_LOOP_LOST;
	}
	struct pollfd fds[2] = {
			{.fd = wl_display_get_fd(display), .events = POLLIN},
			{.fd = fd, .events = POLLIN},
	};
	int n = poll(fds, fd >= 0 ? 2 : 1, timeout_ms);
	if (n < 0 && errno != EINTR) {
		wl_display_cancel_read(display);
		fprintf(stderr, "poll: %s\n", strerror(errno));
		return FW_TEST_LOOP_FAILED;
	}
	if (n > 0 && (fds[0].revents & POLLIN)) {
		if (wl_display_read_events(display) < 0) {
			return FW_TEST_LOOP_LOST;
		}
	} else {
		wl_display_cancel_read(display);
	}
	if (n > 0 && (fds[0].revents & (POLLERR | POLLHUP)) &&
			!(fds[0].revents & POLLIN)) {
		return FW_TEST_LOOP_LOST;
	}
	if (wl_display_dispatch_pending(display) < 0) {
		return FW_TEST_LOOP_LOST;
	}
	return n > 0 && fd >= 0 && fds[1].revents != 0 ? FW_TEST_LOOP_FD_READY
												   : FW_TEST_LOOP_IDLE;
}
