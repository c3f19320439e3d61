#ifndef FAIRWAY_SCHEDULER_CLIENT_STATS_H
#define FAIRWAY_SCHEDULER_CLIENT_STATS_H

#include "scheduler/gate.h"
#include "scheduler/policy.h"
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * One client as the gate sees it, at one moment: a plain copy, so that
 * whoever reports it (the --stats file, the SIGUSR1 dump, a live
 * introspection protocol later) reads the same numbers and holds no
 * pointer into the gate.
 */
struct gate_client_stats {
	pid_t pid;
	uid_t uid;
	const char *state; /* "served", "ready" or "idle": static strings */
	int client_priority; /* set by the user (gate_set_client_priority) */
	int priority; /* the smart priority */
	/* Slices given and used up, input boosts, dispatch time. */
	struct sched_stats sched;
	/* Requests and events with their bytes, batches, reads, throttling. */
	struct gate_connection_stats io;
	size_t queued_request_bytes, queued_event_bytes;
	double cost_per_request_us;
	/* The client process's context switches, all threads; -1: unknown. */
	int64_t voluntary_switches, involuntary_switches;
};

void gate_client_stats_read(
		const struct gate_connection *conn, struct gate_client_stats *stats);

/*
 * Formats one JSON object (no newline) at time t seconds. Returns what
 * snprintf returns.
 */
int gate_client_stats_json(const struct gate_client_stats *stats, double t,
		char *buf, size_t size);

/* Room enough for any line gate_client_stats_json writes. */
#define GATE_CLIENT_STATS_LINE_MAX 1024

/* Reads and formats in one go, for those who only print the line. */
int gate_client_stats_line(
		const struct gate_connection *conn, double t, char *buf, size_t size);

/* Logs every client's line at INFO: what SIGUSR1 asks for. */
void gate_stats_log(struct gate *gate);

#endif
