#include "scheduler/trace.h"
#include "scheduler/capped_file.h"
#include "scheduler/clock.h"
#include "scheduler/wire.h"
#include <stdlib.h>

struct gate_trace {
	struct capped_file *out;
	int64_t start_ns;
};

struct gate_trace *gate_trace_create(struct capped_file *out) {
	struct gate_trace *trace = calloc(1, sizeof(*trace));
	if (!trace) {
		return NULL;
	}
	trace->out = out;
	trace->start_ns = sched_clock_now_ns();
	return trace;
}

void gate_trace_destroy(struct gate_trace *trace) {
	if (!trace) {
		return;
	}
	capped_file_flush(trace->out);
	free(trace);
}

static double seconds(const struct gate_trace *trace) {
	return (sched_clock_now_ns() - trace->start_ns) / 1e9;
}

void gate_trace_message(struct gate_trace *trace, pid_t pid, bool event,
		const struct wire_header *header) {
	capped_file_printf(trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"dir\":\"%s\",\"object\":%u,"
			"\"opcode\":%u,\"size\":%u}\n",
			seconds(trace), (int)pid, event ? "event" : "request",
			header->object_id, header->opcode, header->size);
}

void gate_trace_messages(struct gate_trace *trace, pid_t pid, bool events,
		const uint8_t *buf, size_t len) {
	size_t at = 0;
	while (len - at >= WIRE_HEADER_SIZE) {
		struct wire_header header;
		wire_read_header(buf + at, &header);
		if (!wire_size_valid(header.size) || header.size > len - at) {
			break;
		}
		gate_trace_message(trace, pid, events, &header);
		at += header.size;
	}
}

void gate_trace_forward(
		struct gate_trace *trace, pid_t pid, size_t messages, size_t bytes) {
	capped_file_printf(trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"dir\":\"forward\",\"messages\":%zu,"
			"\"bytes\":%zu}\n",
			seconds(trace), (int)pid, messages, bytes);
}
