#include "scheduler/client_stats.h"
#include "scheduler/clock.h"
#include "scheduler/connection.h"
#include "scheduler/gate.h"
#include "scheduler/log.h"
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *state_of(const struct gate_connection *conn) {
	if (conn->gate->serving == conn) {
		return "served";
	}
	if (conn->entity.ready) {
		return "ready";
	}
	return "idle";
}

static int64_t status_field(FILE *status, const char *name) {
	char line[128];
	size_t len = strlen(name);
	rewind(status);
	while (fgets(line, sizeof(line), status)) {
		if (strncmp(line, name, len) == 0 && line[len] == ':') {
			long long value;
			if (sscanf(line + len + 1, "%lld", &value) == 1) {
				return value;
			}
		}
	}
	return -1;
}

/*
 * /proc/PID/status counts one thread's switches; a client's are the sum
 * over /proc/PID/task. A process that is gone reads as unknown (-1).
 */
static void read_switches(pid_t pid, int64_t *voluntary, int64_t *involuntary) {
	*voluntary = *involuntary = -1;
	if (pid <= 0) {
		return;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *dir = opendir(path);
	if (!dir) {
		return;
	}
	int64_t vol = 0, invol = 0;
	bool any = false;
	struct dirent *entry;
	while ((entry = readdir(dir))) {
		if (entry->d_name[0] < '0' || entry->d_name[0] > '9') {
			continue;
		}
		char status_path[320];
		snprintf(status_path, sizeof(status_path), "/proc/%d/task/%s/status",
				(int)pid, entry->d_name);
		FILE *status = fopen(status_path, "re");
		if (!status) {
			continue; /* the thread just went */
		}
		int64_t v = status_field(status, "voluntary_ctxt_switches");
		int64_t n = status_field(status, "nonvoluntary_ctxt_switches");
		fclose(status);
		if (v >= 0 && n >= 0) {
			vol += v;
			invol += n;
			any = true;
		}
	}
	closedir(dir);
	if (any) {
		*voluntary = vol;
		*involuntary = invol;
	}
}

void gate_client_stats_read(
		const struct gate_connection *conn, struct gate_client_stats *stats) {
	const struct sched_entity *entity = &conn->entity;
	memset(stats, 0, sizeof(*stats));
	stats->pid = conn->pid;
	stats->uid = conn->uid;
	stats->state = state_of(conn);
	stats->priority = entity->priority;
	stats->sched = entity->stats;
	stats->io = conn->stats;
	stats->queued_request_bytes = stream_len(&conn->requests);
	stats->queued_event_bytes = stream_len(&conn->events);
	stats->cost_per_request_us = conn->cost_per_request_ns / 1e3;
	read_switches(conn->pid, &stats->voluntary_switches,
			&stats->involuntary_switches);
}

int gate_client_stats_json(
		const struct gate_client_stats *s, double t, char *buf, size_t size) {
	return snprintf(buf, size,
			"{\"t\":%.3f,\"pid\":%d,\"uid\":%u,\"state\":\"%s\","
			"\"priority\":%d,\"turns\":%" PRIu64 ",\"expired\":%" PRIu64
			",\"boosts\":%" PRIu64 ",\"preempted\":%" PRIu64
			",\"dispatch_ms\":%.3f,\"requests\":%" PRIu64
			",\"request_bytes\":%" PRIu64 ",\"events\":%" PRIu64
			",\"event_bytes\":%" PRIu64 ",\"batches\":%" PRIu64
			",\"reads\":%" PRIu64 ",\"throttled\":%" PRIu64
			",\"queued_request_bytes\":%zu,\"queued_event_bytes\":%zu,"
			"\"cost_per_request_us\":%.3f,\"voluntary_switches\":%" PRId64
			",\"involuntary_switches\":%" PRId64 "}",
			t, (int)s->pid, (unsigned)s->uid, s->state, s->priority,
			s->sched.turns, s->sched.expired, s->sched.boosts,
			s->sched.preempted, s->sched.run_ns / 1e6, s->io.requests,
			s->io.request_bytes, s->io.events, s->io.event_bytes, s->io.batches,
			s->io.reads, s->io.throttled, s->queued_request_bytes,
			s->queued_event_bytes, s->cost_per_request_us,
			s->voluntary_switches, s->involuntary_switches);
}

void gate_stats_log(struct gate *gate) {
	double t = sched_clock_now_ns() / 1e9;
	int count = 0;
	struct gate_connection *conn;
	wl_list_for_each(conn, &gate->connections, link) {
		struct gate_client_stats stats;
		gate_client_stats_read(conn, &stats);
		char line[1024];
		gate_client_stats_json(&stats, t, line, sizeof(line));
		sched_log(SCHED_LOG_INFO, "stats: %s", line);
		count++;
	}
	sched_log(SCHED_LOG_INFO, "stats: %d clients", count);
}
