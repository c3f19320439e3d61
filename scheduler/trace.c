#include "scheduler/trace.h"
#include "scheduler/clock.h"
#include "scheduler/gate.h"
#include <inttypes.h>
#include <stdlib.h>

struct gate_trace {
	struct gate *gate;
	FILE *out;
	int period_ms;
	int64_t start_ns;
	struct wl_event_source *timer;
};

static const char *state_of(const struct gate_connection *conn) {
	if (conn->gate->serving == conn) {
		return "served";
	}
	if (conn->entity.ready) {
		return "ready";
	}
	return "idle";
}

static void write_records(struct gate_trace *trace) {
	double t = (sched_clock_now_ns() - trace->start_ns) / 1e9;
	struct gate_connection *conn;
	wl_list_for_each(conn, &trace->gate->connections, link) {
		const struct sched_entity *e = &conn->entity;
		fprintf(trace->out,
				"{\"t\":%.3f,\"pid\":%d,\"state\":\"%s\",\"priority\":%d,"
				"\"requests\":%" PRIu64 ",\"request_bytes\":%" PRIu64
				",\"event_bytes\":%" PRIu64 ",\"batches\":%" PRIu64
				",\"reads\":%" PRIu64 ",\"queued_bytes\":%zu,"
				"\"turns\":%" PRIu64 ",\"expired\":%" PRIu64
				",\"boosts\":%" PRIu64 ",\"preempted\":%" PRIu64
				",\"served_ms\":%.3f,\"cost_per_request_us\":%.3f}\n",
				t, conn->pid, state_of(conn), e->priority, conn->stats.requests,
				conn->stats.request_bytes, conn->stats.event_bytes,
				conn->stats.batches, conn->stats.reads,
				stream_len(&conn->requests), e->stats.turns, e->stats.expired,
				e->stats.boosts, e->stats.preempted, e->stats.run_ns / 1e6,
				conn->cost_per_request_ns / 1e3);
	}
	fflush(trace->out);
}

static int handle_timer(void *data) {
	struct gate_trace *trace = data;
	write_records(trace);
	wl_event_source_timer_update(trace->timer, trace->period_ms);
	return 0;
}

struct gate_trace *gate_trace_create(
		struct gate *gate, FILE *out, int period_ms) {
	struct gate_trace *trace = calloc(1, sizeof(*trace));
	if (!trace) {
		return NULL;
	}
	trace->gate = gate;
	trace->out = out;
	trace->period_ms = period_ms > 0 ? period_ms : 1000;
	trace->start_ns = sched_clock_now_ns();
	trace->timer = wl_event_loop_add_timer(gate->loop, handle_timer, trace);
	if (!trace->timer) {
		free(trace);
		return NULL;
	}
	wl_event_source_timer_update(trace->timer, trace->period_ms);
	return trace;
}

void gate_trace_destroy(struct gate_trace *trace) {
	if (!trace) {
		return;
	}
	write_records(trace);
	wl_event_source_remove(trace->timer);
	free(trace);
}
