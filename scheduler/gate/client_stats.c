#include "scheduler/gate/client_stats.h"
#include "scheduler/gate/gate_internal.h"
#include "scheduler/log.h"
#include "scheduler/sched_clock.h"
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Reads both switch counts in one pass over a task's status file. */
static bool read_task_switches(
		const char *path, int64_t *voluntary, int64_t *involuntary) {
	FILE *status = fopen(path, "re");
	if (!status) {
		return false; /* the thread just went */
	}
	long long value, vol = -1, invol = -1;
	char line[128];
	while ((vol < 0 || invol < 0) && fgets(line, sizeof(line), status)) {
		if (sscanf(line, "voluntary_ctxt_switches: %lld", &value) == 1) {
			vol = value;
		} else if (sscanf(line, "nonvoluntary_ctxt_switches: %lld", &value) ==
				1) {
			invol = value;
		}
	}
	fclose(status);
	if (vol < 0 || invol < 0) {
		return false;
	}
	*voluntary += vol;
	*involuntary += invol;
	return true;
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
		any |= read_task_switches(status_path, &vol, &invol);
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
	stats->state = entity->ready ? "ready" : "idle";
	stats->client_priority = entity->client_priority;
	stats->priority = entity->priority;
	stats->sched = entity->stats;
	stats->io = conn->stats;
	stats->queued_request_bytes = stream_len(&conn->requests);
	stats->queued_event_bytes = stream_len(&conn->events);
	stats->cost_per_request_us = conn->entity.request_cost_ns / 1e3;
	read_switches(conn->pid, &stats->voluntary_switches,
			&stats->involuntary_switches);
}

int gate_client_stats_json(
		const struct gate_client_stats *s, double t, char *buf, size_t size) {
	return snprintf(buf, size,
			"{\"t\":%.3f,\"pid\":%d,\"uid\":%u,\"state\":\"%s\","
			"\"client_priority\":%d,\"priority\":%d,\"turns\":%" PRIu64
			",\"expired\":%" PRIu64 ",\"boosts\":%" PRIu64
			",\"preempted\":%" PRIu64 ",\"rescued\":%" PRIu64
			",\"dispatch_ms\":%.3f,\"requests\":%" PRIu64
			",\"request_bytes\":%" PRIu64 ",\"events\":%" PRIu64
			",\"event_bytes\":%" PRIu64 ",\"batches\":%" PRIu64
			",\"reads\":%" PRIu64 ",\"throttled\":%" PRIu64
			",\"queued_request_bytes\":%zu,\"queued_event_bytes\":%zu,"
			"\"cost_per_request_us\":%.3f,\"voluntary_switches\":%" PRId64
			",\"involuntary_switches\":%" PRId64 "}",
			t, (int)s->pid, (unsigned)s->uid, s->state, s->client_priority,
			s->priority, s->sched.turns, s->sched.expired, s->sched.boosts,
			s->sched.preempted, s->sched.rescued, s->sched.run_ns / 1e6,
			s->io.requests, s->io.request_bytes, s->io.events,
			s->io.event_bytes, s->io.batches, s->io.reads, s->io.throttled,
			s->queued_request_bytes, s->queued_event_bytes,
			s->cost_per_request_us, s->voluntary_switches,
			s->involuntary_switches);
}

int gate_client_stats_line(
		const struct gate_connection *conn, double t, char *buf, size_t size) {
	struct gate_client_stats stats;
	gate_client_stats_read(conn, &stats);
	return gate_client_stats_json(&stats, t, buf, size);
}

static enum wl_iterator_result log_line(
		struct gate_connection *conn, void *data) {
	const double *t = data;
	char line[GATE_CLIENT_STATS_LINE_MAX];
	gate_client_stats_line(conn, *t, line, sizeof(line));
	sched_log(SCHED_LOG_INFO, "stats: %s", line);
	return WL_ITERATOR_CONTINUE;
}

void gate_stats_log(struct gate *gate) {
	double t = sched_clock_now_ns() / 1e9;
	gate_for_each_connection(gate, log_line, &t);
	sched_log(
			SCHED_LOG_INFO, "stats: %zu clients", gate_connection_count(gate));
}
