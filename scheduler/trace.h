#ifndef FAIRWAY_SCHEDULER_TRACE_H
#define FAIRWAY_SCHEDULER_TRACE_H

#include <stdio.h>

struct gate;

/*
 * A passive trace of the gate, in the spirit of Packard and Gettys'
 * X protocol traces (seed 004): every period, one JSON line per connected
 * client with what the gate forwarded for it and what the policy made of
 * it. Reading the trace changes nothing in the scheduling.
 */
struct gate_trace;

/* Writes to `out` (not closed by the trace) every period_ms. */
struct gate_trace *gate_trace_create(
		struct gate *gate, FILE *out, int period_ms);
/* Writes a last record. Accepts NULL. */
void gate_trace_destroy(struct gate_trace *trace);

#endif
