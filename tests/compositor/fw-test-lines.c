#include "fw-test-lines.h"
#include <string.h>
#include <unistd.h>

bool fw_test_lines_read(struct fw_test_lines *lines, int fd,
		void (*run)(void *data, char *line), void *data) {
	size_t room = sizeof(lines->buf) - 1 - lines->len;
	ssize_t n = read(fd, lines->buf + lines->len, room);
	if (n <= 0) {
		return false;
	}
	lines->len += (size_t)n;
	lines->buf[lines->len] = '\0';
	char *start = lines->buf;
	char *end;
	while ((end = strchr(start, '\n')) != NULL) {
		*end = '\0';
		run(data, start);
		start = end + 1;
	}
	lines->len -= (size_t)(start - lines->buf);
	memmove(lines->buf, start, lines->len);
	if (lines->len == sizeof(lines->buf) - 1) {
		lines->len = 0;
	}
	return true;
}
