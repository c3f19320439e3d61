#ifndef FAIRWAY_TESTS_COMPOSITOR_FW_TEST_LINES_H
#define FAIRWAY_TESTS_COMPOSITOR_FW_TEST_LINES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Commands a test client is driven by, one a line on a pipe (its stdin),
 * read as they come while the client also serves its Wayland connection.
 */
struct fw_test_lines {
	char buf[512];
	size_t len;
};

/*
 * Reads what fd has and gives each whole line to run, without its
 * newline; false once fd is closed. A line longer than the buffer is
 * dropped.
 */
bool fw_test_lines_read(struct fw_test_lines *lines, int fd,
		void (*run)(void *data, char *line), void *data);

#endif
