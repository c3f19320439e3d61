#include "scheduler/wire/wire.h"
#include "tests/fuzz/fuzz_check.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * The first three bytes choose the limits, the rest is the stream, so the
 * fuzzer explores limits and misaligned buffers along with the messages.
 */
#define LIMITS_SIZE 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Walks the accepted prefix on its own, message by message. */
static void check_prefix(const uint8_t *buf, const struct wire_scan *scan) {
	size_t offset = 0, messages = 0;
	while (offset < scan->bytes) {
		FUZZ_CHECK(scan->bytes - offset >= WIRE_HEADER_SIZE);
		struct wire_header header;
		wire_read_header(buf + offset, &header);
		FUZZ_CHECK(wire_size_valid(header.size));
		offset += header.size;
		messages++;
	}
	FUZZ_CHECK(offset == scan->bytes);
	FUZZ_CHECK(messages == scan->messages);
}

/* Why the scan stopped must match what lies right after the prefix. */
static void check_stop(const uint8_t *buf, size_t len, size_t max_bytes,
		size_t max_messages, const struct wire_scan *scan) {
	size_t left = len - scan->bytes;
	struct wire_header next = {0};
	if (left >= WIRE_HEADER_SIZE) {
		wire_read_header(buf + scan->bytes, &next);
	}
	switch (scan->status) {
	case WIRE_OK:
		FUZZ_CHECK(left == 0);
		break;
	case WIRE_PARTIAL:
		FUZZ_CHECK(left > 0);
		FUZZ_CHECK(left < WIRE_HEADER_SIZE ||
				(wire_size_valid(next.size) && left < next.size));
		break;
	case WIRE_BAD_SIZE:
		FUZZ_CHECK(left >= WIRE_HEADER_SIZE);
		FUZZ_CHECK(!wire_size_valid(next.size));
		FUZZ_CHECK(scan->bad.object_id == next.object_id);
		FUZZ_CHECK(scan->bad.opcode == next.opcode);
		FUZZ_CHECK(scan->bad.size == next.size);
		break;
	case WIRE_LIMIT:
		FUZZ_CHECK(left >= WIRE_HEADER_SIZE);
		FUZZ_CHECK(wire_size_valid(next.size) && left >= next.size);
		FUZZ_CHECK(scan->bytes + next.size > max_bytes ||
				(max_messages != 0 && scan->messages == max_messages));
		break;
	default:
		FUZZ_CHECK(!"unknown status");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
	if (size < LIMITS_SIZE) {
		return 0;
	}
	/* Up to 64 KiB, so both sides of the clamp at 4096 are covered. */
	size_t max_bytes = (size_t)data[0] << 8 | data[1];
	/* Small counts, 0 (no limit) among them, are the interesting ones. */
	size_t max_messages = data[2] % 32;
	const uint8_t *buf = data + LIMITS_SIZE;
	size_t len = size - LIMITS_SIZE;

	struct wire_scan scan;
	wire_scan(buf, len, max_bytes, max_messages, &scan);

	size_t clamped = max_bytes < WIRE_MAX_MESSAGE_SIZE ? WIRE_MAX_MESSAGE_SIZE
													   : max_bytes;
	FUZZ_CHECK(scan.bytes <= len);
	FUZZ_CHECK(scan.bytes <= clamped);
	FUZZ_CHECK(max_messages == 0 || scan.messages <= max_messages);
	FUZZ_CHECK(scan.messages * WIRE_HEADER_SIZE <= scan.bytes);
	FUZZ_CHECK(scan.messages * WIRE_MAX_MESSAGE_SIZE >= scan.bytes);
	FUZZ_CHECK(scan.bytes % 4 == 0);
	check_prefix(buf, &scan);
	check_stop(buf, len, clamped, max_messages, &scan);

	/* The accepted prefix, rescanned alone, is accepted whole. */
	struct wire_scan again;
	wire_scan(buf, scan.bytes, SIZE_MAX, 0, &again);
	FUZZ_CHECK(again.status == WIRE_OK);
	FUZZ_CHECK(again.bytes == scan.bytes);
	FUZZ_CHECK(again.messages == scan.messages);

	/* Without limits the scan goes at least as far, the same way. */
	struct wire_scan all;
	wire_scan(buf, len, SIZE_MAX, 0, &all);
	FUZZ_CHECK(all.status != WIRE_LIMIT);
	FUZZ_CHECK(all.bytes >= scan.bytes);
	FUZZ_CHECK(all.messages >= scan.messages);
	if (scan.status != WIRE_LIMIT) {
		FUZZ_CHECK(all.status == scan.status);
		FUZZ_CHECK(all.bytes == scan.bytes);
	}
	check_stop(buf, len, SIZE_MAX, 0, &all);
	return 0;
}
