#ifndef FAIRWAY_SCHEDULER_CLIENT_STATS_H
#define FAIRWAY_SCHEDULER_CLIENT_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct gate;
struct gate_connection;

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
	int priority;
	uint64_t turns; /* slices it was given */
	uint64_t expired; /* slices it used up, each costing a point */
	uint64_t boosts; /* input boosts */
	uint64_t preempted; /* turns ended by someone of higher priority */
	int64_t dispatch_ns; /* time libwayland spent on its requests */
	uint64_t requests, request_bytes;
	uint64_t events, event_bytes;
	uint64_t batches, reads;
	uint64_t throttled; /* times its socket went unread at the request cap */
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

/* Logs every client's line at INFO: what SIGUSR1 asks for. */
void gate_stats_log(struct gate *gate);

#endif
