#ifndef FAIRWAY_SCHEDULER_WIRE_WIRE_H
#define FAIRWAY_SCHEDULER_WIRE_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The Wayland wire format as the gate sees it: a stream of messages, each
 * starting with an 8-byte header (object id, then size << 16 | opcode, in
 * host byte order). The gate needs nothing more than message boundaries; the
 * arguments are libwayland's business.
 */

#define WIRE_HEADER_SIZE 8
/* libwayland-server's input ring at its default size, which the gate leaves
 * it: a larger message can never be dispatched. */
#define WIRE_MAX_MESSAGE_SIZE 4096

enum wire_status {
	WIRE_OK, /* every byte scanned belongs to a whole message */
	WIRE_PARTIAL, /* scanning stopped at an incomplete message */
	WIRE_LIMIT, /* stopped at max_bytes or max_messages, a whole message next */
	WIRE_BAD_SIZE, /* a header gives a size < 8, > 4096 or not a multiple of 4
					*/
};

struct wire_header {
	uint32_t object_id;
	uint16_t opcode;
	uint16_t size;
};

struct wire_scan {
	enum wire_status status;
	size_t bytes; /* length of the whole messages accepted */
	size_t messages; /* how many */
	struct wire_header bad; /* with WIRE_BAD_SIZE: the offending header */
};

/*
 * Decodes the header at the start of buf, which holds at least 8 bytes.
 * Inline, as the size check below: every request passes here (twice for
 * some), and a call each was a good part of the gate's cost per request.
 */
static inline void wire_read_header(
		const uint8_t *buf, struct wire_header *header) {
	uint32_t words[2];
	/* The buffer has no alignment guarantee. */
	memcpy(words, buf, sizeof(words));
	header->object_id = words[0];
	header->opcode = (uint16_t)(words[1] & 0xffff);
	header->size = (uint16_t)(words[1] >> 16);
}

/* Whether a header's size field is a size libwayland can dispatch. */
static inline int wire_size_valid(uint16_t size) {
	return size >= WIRE_HEADER_SIZE && size <= WIRE_MAX_MESSAGE_SIZE &&
			size % 4 == 0;
}

/*
 * Walks the whole messages at the start of buf[0..len), taking at most
 * max_bytes bytes and max_messages messages (0: no limit). A pure function
 * over the buffer, so that it can be fuzzed. A message that would break
 * max_bytes is not taken, but a first message always fits because
 * max_bytes is clamped up to WIRE_MAX_MESSAGE_SIZE.
 */
void wire_scan(const uint8_t *buf, size_t len, size_t max_bytes,
		size_t max_messages, struct wire_scan *scan);

#endif
