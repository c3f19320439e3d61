#include "scheduler/wire/wire.h"
#include "tests/unit/check.h"
#include <stdint.h>
#include <string.h>

struct msg {
	uint32_t id;
	uint16_t opcode;
	uint16_t size;
};

/* Writes one message the way libwayland does: header words in host order. */
/* The status's name, for messages. */
static const char *wire_status_str(enum wire_status status) {
	switch (status) {
	case WIRE_OK:
		return "ok";
	case WIRE_PARTIAL:
		return "partial";
	case WIRE_LIMIT:
		return "limit";
	case WIRE_BAD_SIZE:
		return "bad size";
	}
	return "unknown";
}

static size_t put_msg(uint8_t *buf, uint32_t id, uint16_t opcode, uint16_t size,
		size_t body) {
	uint32_t words[2] = {id, (uint32_t)size << 16 | opcode};
	memcpy(buf, words, sizeof(words));
	for (size_t i = 0; i < body; i++) {
		buf[WIRE_HEADER_SIZE + i] = (uint8_t)(0xa5 ^ i);
	}
	return WIRE_HEADER_SIZE + body;
}

static size_t put_msgs(uint8_t *buf, const struct msg *msgs, size_t n) {
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		len += put_msg(buf + len, msgs[i].id, msgs[i].opcode, msgs[i].size,
				msgs[i].size - WIRE_HEADER_SIZE);
	}
	return len;
}

static void test_read_header(void) {
	uint8_t buf[16] = {0};
	/* Deliberately misaligned. */
	put_msg(buf + 1, 0xdeadbeef, 0x1234, 0x0abc, 0);
	struct wire_header header;
	wire_read_header(buf + 1, &header);
	CHECK_INT(header.object_id, 0xdeadbeef);
	CHECK_INT(header.opcode, 0x1234);
	CHECK_INT(header.size, 0x0abc);
}

/* libwayland's connection-test request_bogus_size, plus the upper edge. */
static void test_bogus_sizes(void) {
	for (uint16_t size = 0; size < 12; size++) {
		uint8_t buf[16] = {0};
		size_t len = put_msg(buf, 3, 7, size, 4);
		struct wire_scan scan;
		if (size == 8) {
			CHECK(wire_size_valid(size));
			wire_scan(buf, WIRE_HEADER_SIZE, 0, 0, &scan);
			CHECK_INT(scan.status, WIRE_OK);
			CHECK_INT(scan.bytes, 8);
			CHECK_INT(scan.messages, 1);
			continue;
		}
		CHECK(!wire_size_valid(size));
		wire_scan(buf, len, 0, 0, &scan);
		CHECK_INT(scan.status, WIRE_BAD_SIZE);
		CHECK_INT(scan.bytes, 0);
		CHECK_INT(scan.messages, 0);
		CHECK_INT(scan.bad.object_id, 3);
		CHECK_INT(scan.bad.opcode, 7);
		CHECK_INT(scan.bad.size, size);
	}

	static uint8_t big[WIRE_MAX_MESSAGE_SIZE + 8];
	struct wire_scan scan;
	CHECK(wire_size_valid(4096));
	CHECK(wire_size_valid(4092));
	CHECK(!wire_size_valid(4097));
	CHECK(!wire_size_valid(4100));
	CHECK(!wire_size_valid(65535));
	CHECK(!wire_size_valid(65532));

	size_t len = put_msg(big, 5, 0, 4096, 4096 - WIRE_HEADER_SIZE);
	wire_scan(big, len, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_OK);
	CHECK_INT(scan.bytes, 4096);
	CHECK_INT(scan.messages, 1);

	/* Judged as soon as the header is whole, before any body arrives. */
	uint16_t bad_sizes[] = {4097, 4100, 65535, 65532};
	for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		put_msg(big, 5, 1, bad_sizes[i], 0);
		wire_scan(big, WIRE_HEADER_SIZE, 0, 0, &scan);
		CHECK_INT(scan.status, WIRE_BAD_SIZE);
		CHECK_INT(scan.bad.size, bad_sizes[i]);
		CHECK_INT(scan.bytes, 0);
	}
}

/*
 * What a client sends at start-up and on its first frame: get_registry,
 * bind x3 (with interface strings), sync, create_surface, attach, damage,
 * commit, plus one message as large as libwayland allows.
 */
static const struct msg stream[] = {
		{1, 1, 12},
		{2, 0, 36},
		{2, 0, 40},
		{2, 0, 32},
		{1, 0, 12},
		{4, 0, 12},
		{7, 1, 20},
		{7, 2, 24},
		{7, 6, 8},
		{9, 3, 4096},
		{7, 6, 8},
};
#define STREAM_LEN (sizeof(stream) / sizeof(stream[0]))

static void test_every_split(void) {
	static uint8_t buf[8192];
	size_t len = put_msgs(buf, stream, STREAM_LEN);
	CHECK(len < sizeof(buf));

	for (size_t prefix = 0; prefix <= len; prefix++) {
		/* The expected answer, from the list rather than the bytes. */
		size_t bytes = 0, messages = 0;
		while (messages < STREAM_LEN &&
				bytes + stream[messages].size <= prefix) {
			bytes += stream[messages].size;
			messages++;
		}
		enum wire_status want = bytes == prefix ? WIRE_OK : WIRE_PARTIAL;

		struct wire_scan scan;
		wire_scan(buf, prefix, SIZE_MAX, 0, &scan);
		if (scan.status != want || scan.bytes != bytes ||
				scan.messages != messages) {
			fprintf(stderr, "prefix %zu: got %s %zu/%zu, want %s %zu/%zu\n",
					prefix, wire_status_str(scan.status), scan.bytes,
					scan.messages, wire_status_str(want), bytes, messages);
		}
		CHECK_INT(scan.status, want);
		CHECK_INT(scan.bytes, bytes);
		CHECK_INT(scan.messages, messages);

		/* The rest, scanned on its own, picks up where the prefix ended. */
		struct wire_scan rest;
		wire_scan(buf + bytes, len - bytes, SIZE_MAX, 0, &rest);
		CHECK_INT(rest.status, WIRE_OK);
		CHECK_INT(rest.bytes, len - bytes);
		CHECK_INT(rest.messages, STREAM_LEN - messages);
	}
}

static void test_limits(void) {
	static uint8_t buf[8192];
	const struct msg msgs[] = {
			{1, 0, 12},
			{1, 1, 12},
			{3, 0, 20},
			{4, 2, 4096},
			{5, 0, 8},
			{6, 1, 16},
	};
	size_t len = put_msgs(buf, msgs, 6);
	CHECK_INT(len, 4164);
	struct wire_scan scan;

	/* max_bytes below one maximal message is clamped up to it. */
	wire_scan(buf, len, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_LIMIT);
	CHECK_INT(scan.bytes, 44);
	CHECK_INT(scan.messages, 3);
	wire_scan(buf, len, 4095, 0, &scan);
	CHECK_INT(scan.status, WIRE_LIMIT);
	CHECK_INT(scan.bytes, 44);

	wire_scan(buf, len, 4148, 0, &scan);
	CHECK_INT(scan.status, WIRE_LIMIT);
	CHECK_INT(scan.bytes, 4148);
	CHECK_INT(scan.messages, 5);
	wire_scan(buf, len, 4163, 0, &scan);
	CHECK_INT(scan.status, WIRE_LIMIT);
	CHECK_INT(scan.bytes, 4148);
	wire_scan(buf, len, 4164, 0, &scan);
	CHECK_INT(scan.status, WIRE_OK);
	CHECK_INT(scan.bytes, 4164);
	CHECK_INT(scan.messages, 6);

	/* A maximal message alone always fits, whatever max_bytes says. */
	wire_scan(buf + 44, 4096, 1, 0, &scan);
	CHECK_INT(scan.status, WIRE_OK);
	CHECK_INT(scan.messages, 1);

	for (size_t max = 1; max <= 6; max++) {
		wire_scan(buf, len, SIZE_MAX, max, &scan);
		CHECK_INT(scan.status, max < 6 ? WIRE_LIMIT : WIRE_OK);
		CHECK_INT(scan.messages, max);
	}
	wire_scan(buf, len, SIZE_MAX, 2, &scan);
	CHECK_INT(scan.bytes, 24);
	wire_scan(buf, len, SIZE_MAX, 7, &scan);
	CHECK_INT(scan.status, WIRE_OK);
	CHECK_INT(scan.messages, 6);

	/* Both limits: whichever comes first. */
	wire_scan(buf, len, 0, 2, &scan);
	CHECK_INT(scan.status, WIRE_LIMIT);
	CHECK_INT(scan.messages, 2);
	wire_scan(buf, len, 0, 5, &scan);
	CHECK_INT(scan.status, WIRE_LIMIT);
	CHECK_INT(scan.messages, 3);

	/*
	 * LIMIT promises a whole message is waiting: past the limit, an
	 * incomplete one is PARTIAL and an invalid one is BAD_SIZE.
	 */
	wire_scan(buf, 30, SIZE_MAX, 2, &scan);
	CHECK_INT(scan.status, WIRE_PARTIAL);
	CHECK_INT(scan.bytes, 24);
	wire_scan(buf, 4000, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_PARTIAL);
	CHECK_INT(scan.bytes, 44);
	CHECK_INT(scan.messages, 3);
}

static void test_partial_header(void) {
	uint8_t buf[64] = {0};
	size_t len = put_msg(buf, 1, 0, 12, 4);
	len += put_msg(buf + len, 1, 1, 12, 4);
	CHECK_INT(len, 24);
	put_msg(buf + len, 2, 0, 16, 8);

	struct wire_scan scan;
	for (size_t extra = 1; extra < WIRE_HEADER_SIZE; extra++) {
		wire_scan(buf + len, extra, 0, 0, &scan);
		CHECK_INT(scan.status, WIRE_PARTIAL);
		CHECK_INT(scan.bytes, 0);
		CHECK_INT(scan.messages, 0);
		wire_scan(buf, len + extra, 0, 0, &scan);
		CHECK_INT(scan.status, WIRE_PARTIAL);
		CHECK_INT(scan.bytes, 24);
		CHECK_INT(scan.messages, 2);
	}
	wire_scan(buf, 0, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_OK);
	CHECK_INT(scan.bytes, 0);
	CHECK_INT(scan.messages, 0);

	/* Header whole, body short. */
	wire_scan(buf, len + 8, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_PARTIAL);
	CHECK_INT(scan.bytes, 24);
	wire_scan(buf, len + 16, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_OK);
	CHECK_INT(scan.messages, 3);
}

static void test_bad_after_good(void) {
	uint8_t buf[128] = {0};
	size_t len = put_msg(buf, 1, 1, 12, 4);
	len += put_msg(buf + len, 2, 0, 32, 24);
	len += put_msg(buf + len, 7, 6, 8, 0);
	CHECK_INT(len, 52);
	put_msg(buf + len, 9, 3, 10, 8);
	/* Anything after a bad header is never looked at. */
	put_msg(buf + len + 16, 1, 0, 12, 4);

	struct wire_scan scan;
	wire_scan(buf, len + 28, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_BAD_SIZE);
	CHECK_INT(scan.bytes, 52);
	CHECK_INT(scan.messages, 3);
	CHECK_INT(scan.bad.object_id, 9);
	CHECK_INT(scan.bad.opcode, 3);
	CHECK_INT(scan.bad.size, 10);

	/* Before the bad header is whole, it cannot be judged. */
	wire_scan(buf, len + 7, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_PARTIAL);
	CHECK_INT(scan.bytes, 52);
	wire_scan(buf, len + 8, 0, 0, &scan);
	CHECK_INT(scan.status, WIRE_BAD_SIZE);
	CHECK_INT(scan.bytes, 52);

	/* A limit reached first hides the bad header. */
	wire_scan(buf, len + 28, 0, 2, &scan);
	CHECK_INT(scan.status, WIRE_LIMIT);
	CHECK_INT(scan.bytes, 44);
}

static void test_status_str(void) {
	const enum wire_status all[] = {
			WIRE_OK, WIRE_PARTIAL, WIRE_LIMIT, WIRE_BAD_SIZE};
	for (size_t i = 0; i < 4; i++) {
		CHECK(wire_status_str(all[i]) != NULL);
		for (size_t j = 0; j < i; j++) {
			CHECK(strcmp(wire_status_str(all[i]), wire_status_str(all[j])));
		}
	}
}

int main(void) {
	RUN_TEST(test_read_header);
	RUN_TEST(test_bogus_sizes);
	RUN_TEST(test_every_split);
	RUN_TEST(test_limits);
	RUN_TEST(test_partial_header);
	RUN_TEST(test_bad_after_good);
	RUN_TEST(test_status_str);
	return 0;
}
