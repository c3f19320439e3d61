#ifndef FAIRWAY_TESTS_COMMON_RAW_WIRE_H
#define FAIRWAY_TESTS_COMMON_RAW_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Speaking the Wayland wire format by hand, for tests that must send what
 * no well-behaved client library would: bogus sizes, stray fds, partial
 * messages.
 */

/* Connects to a Unix socket path; -1 with errno on failure. */
int raw_wire_connect(const char *path);

/* Writes a message header: object id, then size << 16 | opcode. */
void raw_wire_header(
		uint32_t *words, uint32_t object, uint32_t size, uint32_t opcode);

/* One sendmsg of len bytes carrying nfds fds (at most 253). */
ssize_t raw_wire_send(
		int fd, const void *data, size_t len, const int *fds, int nfds);

#endif
