#ifndef FAIRWAY_TESTS_COMPOSITOR_FW_TEST_LOOP_H
#define FAIRWAY_TESTS_COMPOSITOR_FW_TEST_LOOP_H

#include <wayland-client.h>

enum fw_test_loop_result {
	FW_TEST_LOOP_LOST = -2, /* the compositor went, or sent an error */
	FW_TEST_LOOP_FAILED = -1, /* poll failed, said on stderr */
	FW_TEST_LOOP_IDLE = 0, /* fd had nothing, or timeout_ms passed */
	FW_TEST_LOOP_FD_READY = 1, /* fd is readable, or closed */
};

/*
 * One turn of a test client's loop: dispatches what is queued, flushes
 * stdout and the requests, waits for the display or for fd (none if
 * negative) up to timeout_ms (-1: for ever), and dispatches what the
 * display sent.
 */
enum fw_test_loop_result fw_test_loop_turn(
		struct wl_display *display, int fd, int timeout_ms);

#endif
