#ifndef FAIRWAY_SCHEDULER_GATE_CLIENT_STATS_H
#define FAIRWAY_SCHEDULER_GATE_CLIENT_STATS_H

#include "scheduler/gate/gate.h"
#include "scheduler/gate/policy.h"
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What the gate moved for one client, counted as it went. */
struct gate_connection_stats {
	uint64_t requests; /* messages forwarded to libwayland */
	uint64_t request_bytes;
	uint64_t events; /* messages libwayland sent the client */
	uint64_t event_bytes; /* bytes forwarded back to the client */
	uint64_t batches;
	uint64_t reads; /* recvmsg calls on the client's socket */
	uint64_t throttled; /* times its socket went unread at the cap */
};

/*
 * One client as the gate sees it, at one moment: a plain copy, so that
 * whoever reports it (the --stats file, the SIGUSR1 dump, a live view of
 * the clients) reads the same numbers and holds no pointer into the gate.
 */
struct gate_client_stats {
	pid_t pid; /* who connected (SO_PEERCRED, or the first writer) */
	uid_t uid;
	const char *state; /* "ready" (requests queued) or "idle": static */
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
