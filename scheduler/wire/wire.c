#include "scheduler/wire/wire.h"
#include <string.h>

/*
 * For the message after the last one taken, the checks go from what the
 * bytes already prove to what they do not: a short header cannot be judged
 * (PARTIAL), a whole header is judged at once (BAD_SIZE), a short body is
 * PARTIAL, and only a whole valid message can be refused by a limit. So
 * WIRE_LIMIT always means a whole message is waiting.
 */
void wire_scan(const uint8_t *buf, size_t len, size_t max_bytes,
		size_t max_messages, struct wire_scan *scan) {
	if (max_bytes < WIRE_MAX_MESSAGE_SIZE) {
		max_bytes = WIRE_MAX_MESSAGE_SIZE;
	}
	memset(scan, 0, sizeof(*scan));

	size_t offset = 0;
	size_t messages = 0;
	enum wire_status status;
	for (;;) {
		size_t left = len - offset;
		if (left == 0) {
			status = WIRE_OK;
			break;
		}
		if (left < WIRE_HEADER_SIZE) {
			status = WIRE_PARTIAL;
			break;
		}
		struct wire_header header;
		wire_read_header(buf + offset, &header);
		if (!wire_size_valid(header.size)) {
			scan->bad = header;
			status = WIRE_BAD_SIZE;
			break;
		}
		if (left < header.size) {
			status = WIRE_PARTIAL;
			break;
		}
		if (offset + header.size > max_bytes ||
				(max_messages != 0 && messages == max_messages)) {
			status = WIRE_LIMIT;
			break;
		}
		offset += header.size;
		messages++;
	}

	scan->status = status;
	scan->bytes = offset;
	scan->messages = messages;
}
