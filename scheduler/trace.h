#ifndef FAIRWAY_SCHEDULER_TRACE_H
#define FAIRWAY_SCHEDULER_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A passive protocol trace, after Packard and Gettys' X traces ("X Window
 * System Network Performance"):
 * the gate already splits every message, so it can note each request when
 * it arrives, each batch when the scheduler forwards it, and each event
 * when it goes back, with a timestamp and no effect on the scheduling.
 * What a client waited for, and how long its requests sat queued, can be
 * read off afterwards. One JSON line per record:
 *   {"t":S,"pid":P,"dir":"request"|"event","object":O,"opcode":N,"size":B}
 *   {"t":S,"pid":P,"dir":"forward","messages":N,"bytes":B}
 * with t in seconds since the trace began.
 */
struct gate_trace;

struct capped_file;

/* Writes to `out` (capped_file.h), which the trace does not close. */
struct gate_trace *gate_trace_create(struct capped_file *out);
/* Flushes. Accepts NULL. */
void gate_trace_destroy(struct gate_trace *trace);

struct wire_header;

void gate_trace_message(struct gate_trace *trace, pid_t pid, bool event,
		const struct wire_header *header);
/* Each whole message in buf[0..len), one record apiece. */
void gate_trace_messages(struct gate_trace *trace, pid_t pid, bool events,
		const uint8_t *buf, size_t len);
void gate_trace_forward(
		struct gate_trace *trace, pid_t pid, size_t messages, size_t bytes);

#endif
