#include "compositor/sched/demo.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/spawn.h"
#include "scheduler/gate/client_stats.h"
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

#define DEMO_MAX_CHILDREN 4
#define DEMO_REPORT_MS 2000

struct fw_demo {
	struct fw_server *server;
	struct wl_event_source *timer;
	pid_t children[DEMO_MAX_CHILDREN];
	int n_children;
	uint64_t last_frames;
};

static bool in_path(const char *name) {
	const char *path = getenv("PATH");
	if (path == NULL) {
		return false;
	}
	char *copy = strdup(path);
	if (copy == NULL) {
		return false;
	}
	bool found = false;
	char *save = NULL;
	for (char *dir = strtok_r(copy, ":", &save); dir != NULL && !found;
			dir = strtok_r(NULL, ":", &save)) {
		char file[4096];
		snprintf(file, sizeof(file), "%s/%s", dir, name);
		found = access(file, X_OK) == 0;
	}
	free(copy);
	return found;
}

static void start_client(struct fw_demo *demo, const char *name, int log_fd) {
	if (demo->n_children >= DEMO_MAX_CHILDREN || !in_path(name)) {
		return;
	}
	char *argv[] = {(char *)name, NULL};
	pid_t pid = fw_spawn_output(argv, log_fd);
	if (pid > 0) {
		demo->children[demo->n_children++] = pid;
		wlr_log(WLR_INFO, "Demo: started %s (pid %d)", name, (int)pid);
	}
}

static int count_clients(struct fw_server *server) {
	int count = 0;
	struct wl_list *clients = wl_display_get_client_list(server->display);
	struct wl_list *link;
	for (link = clients->next; link != clients; link = link->next) {
		count++;
	}
	return count;
}

/* The process name, for a report a person can read. */
static void process_name(pid_t pid, char *name, size_t size) {
	snprintf(name, size, "?");
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *file = fopen(path, "re");
	if (file == NULL) {
		return;
	}
	if (fgets(name, (int)size, file) != NULL) {
		name[strcspn(name, "\n")] = '\0';
	}
	fclose(file);
}

static enum wl_iterator_result report_client(
		struct gate_connection *conn, void *data) {
	struct gate_client_stats stats;
	gate_client_stats_read(conn, &stats);
	char name[32];
	process_name(stats.pid, name, sizeof(name));
	printf("  %-18s pid %-7d priority %3d  %8" PRIu64
		   " requests  %6.1f ms served\n",
			name, (int)stats.pid, stats.priority, stats.io.requests,
			stats.sched.run_ns / 1e6);
	return WL_ITERATOR_CONTINUE;
}

/* What the scheduler makes of each client: its priority and its load. */
static void report_gate(struct fw_server *server) {
	struct gate *gate = fw_sched_get_gate(server->sched);
	if (gate == NULL) {
		printf("  (scheduler off: libwayland serves clients directly)\n");
		return;
	}
	gate_for_each_connection(gate, report_client, NULL);
}

static int handle_timer(void *data) {
	struct fw_demo *demo = data;
	struct fw_server *server = demo->server;
	uint64_t frames = server->frames_rendered - demo->last_frames;
	demo->last_frames = server->frames_rendered;
	printf("fairway: %d clients connected, %.1f frames/s rendered\n",
			count_clients(server), frames * 1000.0 / DEMO_REPORT_MS);
	report_gate(server);
	fflush(stdout);
	wl_event_source_timer_update(demo->timer, DEMO_REPORT_MS);
	return 0;
}

struct fw_demo *fw_demo_create(struct fw_server *server) {
	struct fw_demo *demo = calloc(1, sizeof(*demo));
	if (demo == NULL) {
		return NULL;
	}
	demo->server = server;
	demo->timer = wl_event_loop_add_timer(server->loop, handle_timer, demo);
	if (demo->timer == NULL) {
		free(demo);
		return NULL;
	}
	wl_event_source_timer_update(demo->timer, DEMO_REPORT_MS);
	/*
	 * The clients' own output goes to a file of its own: on our stdout it
	 * would break up the report, on our stderr our log.
	 */
	char log_path[4096];
	snprintf(log_path, sizeof(log_path), "%s/fairway-demo-%s.log",
			getenv("XDG_RUNTIME_DIR"), fw_sched_socket_name(server->sched));
	int log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (log_fd < 0) {
		wlr_log_errno(WLR_ERROR, "Cannot open %s for the demo clients' output",
				log_path);
	}
	start_client(demo, "foot", log_fd);
	start_client(demo, "weston-simple-shm", log_fd);
	start_client(demo, "weston-flower", log_fd);
	if (log_fd >= 0) {
		close(log_fd);
	}
	printf("fairway: demo started %d clients (their output: %s); "
		   "Ctrl+C to quit\n",
			demo->n_children, log_fd >= 0 ? log_path : "ours");
	fflush(stdout);
	return demo;
}

void fw_demo_terminate(struct fw_demo *demo) {
	if (demo == NULL) {
		return;
	}
	for (int i = 0; i < demo->n_children; i++) {
		kill(-demo->children[i], SIGTERM);
	}
}

void fw_demo_destroy(struct fw_demo *demo) {
	if (demo == NULL) {
		return;
	}
	fw_demo_terminate(demo);
	for (int i = 0; i < demo->n_children; i++) {
		fw_spawn_wait_group(demo->children[i]);
	}
	wl_event_source_remove(demo->timer);
	free(demo);
}
