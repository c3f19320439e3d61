#include "compositor/client_create.h"
#include "compositor/config_apply.h"
#include "compositor/frame_schedule.h"
#include "compositor/server.h"
#include "scheduler/capped_file.h"
#include "scheduler/client_stats.h"
#include "scheduler/gate.h"
#include "scheduler/log.h"
#include "scheduler/stats_file.h"
#include "scheduler/trace.h"
#include <signal.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

__attribute__((format(printf, 2, 0))) static void log_through_wlr(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	_wlr_vlog((enum wlr_log_importance)importance, fmt, args);
}

/*
 * What --stats and --trace may take on disk: each file up to its cap, and
 * the full one before it as FILE.1 (capped_file.h). A busy client's trace
 * writes some 100 bytes a message, so 256 MiB a few minutes of flood.
 */
#define STATS_FILE_CAP (16u << 20)
#define TRACE_FILE_CAP (256u << 20)

static int frame_client_fields(
		void *data, struct wl_client *client, char *buf, size_t size) {
	struct fw_server *server = data;
	return fw_frame_schedule_client_json(
			server->frame_schedule, client, buf, size);
}

static void frame_output_lines(void *data, struct capped_file *out, double t) {
	struct fw_server *server = data;
	fw_frame_schedule_write_outputs(server->frame_schedule, out, t);
}

static bool start_stats_file(struct fw_server *server) {
	server->stats_file =
			capped_file_open(server->config.stats_path, STATS_FILE_CAP);
	if (server->stats_file == NULL) {
		wlr_log_errno(WLR_ERROR, "Cannot open %s", server->config.stats_path);
		return false;
	}
	server->stats =
			gate_stats_file_create(server->gate, server->stats_file, 1000);
	if (server->stats == NULL) {
		wlr_log(WLR_ERROR, "Cannot start writing statistics");
		return false;
	}
	if (server->frame_schedule != NULL) {
		gate_stats_file_set_extra(server->stats,
				&(struct gate_stats_extra){
						.client_fields = frame_client_fields,
						.write_lines = frame_output_lines,
						.data = server,
				});
	}
	return true;
}

static bool start_trace(struct fw_server *server) {
	server->trace_file =
			capped_file_open(server->config.trace_path, TRACE_FILE_CAP);
	if (server->trace_file == NULL) {
		wlr_log_errno(WLR_ERROR, "Cannot open %s", server->config.trace_path);
		return false;
	}
	server->trace = gate_trace_create(
			server->trace_file, server->display, server->gate != NULL);
	if (server->trace == NULL) {
		wlr_log(WLR_ERROR, "Cannot start the protocol trace");
		return false;
	}
	if (server->gate != NULL) {
		gate_set_trace(server->gate, server->trace);
	}
	return true;
}

static int handle_sigusr1(int signal_number, void *data) {
	struct fw_server *server = data;
	gate_stats_log(server->gate);
	return 0;
}

static bool listen_through_gate(struct fw_server *server) {
	struct gate_config config;
	gate_config_default(&config);
	fw_config_sched_params(&server->config, &config.sched);
	config.create_client = fw_real_wl_client_create;
	sched_log_init(log_through_wlr);

	server->gate = gate_create(server->display, &config);
	if (server->gate == NULL) {
		wlr_log(WLR_ERROR, "Cannot create the dispatch gate");
		return false;
	}
	if (!gate_listen(server->gate, server->config.socket)) {
		wlr_log(WLR_ERROR, "Cannot listen on a Wayland socket");
		return false;
	}
	server->socket_name = gate_socket_name(server->gate);
	fw_client_create_set_gate(server->gate);
	if (server->config.stats_path != NULL && !start_stats_file(server)) {
		return false;
	}
	if (server->config.trace_path != NULL && !start_trace(server)) {
		return false;
	}
	server->sigusr1_source = wl_event_loop_add_signal(
			server->loop, SIGUSR1, handle_sigusr1, server);
	if (server->sigusr1_source == NULL) {
		wlr_log(WLR_ERROR, "Cannot handle SIGUSR1");
		return false;
	}
	wlr_log(WLR_INFO, "Scheduler on: interval %.2f ms, max slice %.2f ms",
			config.sched.interval_ns / 1e6, config.sched.max_slice_ns / 1e6);
	return true;
}

static bool listen_through_libwayland(struct fw_server *server) {
	if (server->config.socket != NULL) {
		if (wl_display_add_socket(server->display, server->config.socket) !=
				0) {
			wlr_log(WLR_ERROR, "Cannot listen on Wayland socket %s",
					server->config.socket);
			return false;
		}
		server->socket_name = server->config.socket;
		return true;
	}
	const char *name = wl_display_add_socket_auto(server->display);
	if (name == NULL) {
		wlr_log(WLR_ERROR, "Cannot create a Wayland socket");
		return false;
	}
	server->socket_name = name;
	return true;
}

bool fw_server_listen(struct fw_server *server) {
	if (server->config.scheduler) {
		return listen_through_gate(server);
	}
	wlr_log(WLR_INFO, "Scheduler off: libwayland serves clients directly");
	/* Without the gate the trace comes from libwayland's protocol logger:
	 * requests as they run, events as fairway's loop flushes them. */
	return listen_through_libwayland(server) &&
			(server->config.trace_path == NULL || start_trace(server));
}

void fw_server_stop_listening(struct fw_server *server) {
	if (server->sigusr1_source != NULL) {
		wl_event_source_remove(server->sigusr1_source);
		server->sigusr1_source = NULL;
	}
	if (server->gate != NULL) {
		gate_set_trace(server->gate, NULL);
	}
	gate_trace_destroy(server->trace);
	server->trace = NULL;
	capped_file_close(server->trace_file);
	server->trace_file = NULL;
	gate_stats_file_destroy(server->stats);
	server->stats = NULL;
	capped_file_close(server->stats_file);
	server->stats_file = NULL;
	fw_client_create_set_gate(NULL);
	gate_destroy(server->gate);
	server->gate = NULL;
}
