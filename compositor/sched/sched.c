#include "compositor/sched/sched.h"
#include "compositor/sched/client.h"
#include "compositor/sched/client_create.h"
#include "compositor/server.h"
#include "scheduler/capped_file.h"
#include "scheduler/gate/client_stats.h"
#include "scheduler/gate/gate.h"
#include "scheduler/log.h"
#include "scheduler/stats/stats_file.h"
#include "scheduler/trace/trace.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/util/log.h>

/*
 * What --stats and --trace may take on disk: each file up to its cap, and
 * the full one before it as FILE.1 (capped_file.h). A busy client's trace
 * writes some 100 bytes a message, so the trace's cap is minutes of flood.
 */
#define STATS_FILE_CAP (16u << 20)
#define TRACE_FILE_CAP (256u << 20)
#define STATS_PERIOD_MS 1000

struct fw_sched {
	struct fw_server *server;
	const struct fw_sched_config *config;
	struct gate *gate; /* NULL with --scheduler off */
	struct fw_client_list *clients;
	const char *socket_name;
	struct capped_file *stats_file;
	struct gate_stats_file *stats;
	struct capped_file *trace_file;
	struct gate_trace *trace;
	struct wl_event_source *sigusr1_source;
	bool running;
};

__attribute__((format(printf, 2, 0))) static void log_through_wlr(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	_wlr_vlog((enum wlr_log_importance)importance, fmt, args);
}

void fw_sched_log_to_wlr(void) {
	sched_log_init(log_through_wlr);
}

static bool start_stats_file(struct fw_sched *sched, const char *path) {
	sched->stats_file = capped_file_open(path, STATS_FILE_CAP);
	if (sched->stats_file == NULL) {
		wlr_log_errno(WLR_ERROR, "Cannot open %s", path);
		return false;
	}
	sched->stats = gate_stats_file_create(sched->gate, sched->server->loop,
			sched->stats_file, STATS_PERIOD_MS);
	if (sched->stats == NULL) {
		wlr_log(WLR_ERROR, "Cannot start writing statistics");
		return false;
	}
	return true;
}

static bool start_trace(struct fw_sched *sched, const char *path) {
	sched->trace_file = capped_file_open(path, TRACE_FILE_CAP);
	if (sched->trace_file == NULL) {
		wlr_log_errno(WLR_ERROR, "Cannot open %s", path);
		return false;
	}
	sched->trace = gate_trace_create(
			sched->trace_file, sched->server->display, sched->gate != NULL);
	if (sched->trace == NULL) {
		wlr_log(WLR_ERROR, "Cannot start the protocol trace");
		return false;
	}
	if (sched->gate != NULL) {
		gate_set_trace(sched->gate, sched->trace);
	}
	return true;
}

static int handle_sigusr1(int signal_number, void *data) {
	struct fw_sched *sched = data;
	gate_stats_log(sched->gate);
	return 0;
}

/* The slices the configuration asks for, else the scheduler's own. */
static void derive_params(
		const struct fw_sched_config *config, struct sched_params *params) {
	sched_params_init(params,
			config->interval_ms > 0 ? (int64_t)(config->interval_ms * 1e6)
									: GATE_DEFAULT_INTERVAL_NS);
	if (config->max_slice_ms > 0) {
		params->max_slice_ns = (int64_t)(config->max_slice_ms * 1e6);
	}
}

static void log_params(const struct sched_params *params) {
	wlr_log(WLR_INFO, "Scheduler: interval %.2f ms, max slice %.2f ms",
			params->interval_ns / 1e6, params->max_slice_ns / 1e6);
}

static bool listen_through_gate(struct fw_sched *sched) {
	struct fw_server *server = sched->server;
	struct gate_config config;
	gate_config_default(&config);
	derive_params(sched->config, &config.sched);
	config.transport = sched->config->transport;
	config.create_client = fw_client_create_real;
	sched->gate = gate_create(server->display, &config);
	if (sched->gate == NULL) {
		wlr_log(WLR_ERROR, "Cannot create the dispatch gate");
		return false;
	}
	if (!gate_listen(sched->gate, sched->config->socket)) {
		wlr_log(WLR_ERROR, "Cannot listen on a Wayland socket");
		return false;
	}
	sched->socket_name = gate_socket_name(sched->gate);
	fw_client_create_set_gate(sched->gate);
	if (sched->config->stats_path != NULL &&
			!start_stats_file(sched, sched->config->stats_path)) {
		return false;
	}
	if (sched->config->trace_path != NULL &&
			!start_trace(sched, sched->config->trace_path)) {
		return false;
	}
	sched->sigusr1_source = wl_event_loop_add_signal(
			server->loop, SIGUSR1, handle_sigusr1, sched);
	if (sched->sigusr1_source == NULL) {
		wlr_log(WLR_ERROR, "Cannot handle SIGUSR1");
		return false;
	}
	log_params(&config.sched);
	return true;
}

static bool listen_through_libwayland(struct fw_sched *sched) {
	struct fw_server *server = sched->server;
	wlr_log(WLR_INFO, "Scheduler off: libwayland serves clients directly");
	/*
	 * Then libwayland's own buffer is all that holds the events of a client
	 * that stops reading: it gets the gate's cap for them, so that such a
	 * client keeps its events either way. Through the gate libwayland keeps
	 * its small default: the gate holds the backlog, within its limits.
	 */
	struct gate_config defaults;
	gate_config_default(&defaults);
	wl_display_set_default_max_buffer_size(
			server->display, defaults.event_backlog_cap);
	if (sched->config->socket != NULL) {
		if (wl_display_add_socket(server->display, sched->config->socket) !=
				0) {
			wlr_log(WLR_ERROR, "Cannot listen on Wayland socket %s",
					sched->config->socket);
			return false;
		}
		sched->socket_name = sched->config->socket;
	} else {
		sched->socket_name = wl_display_add_socket_auto(server->display);
		if (sched->socket_name == NULL) {
			wlr_log(WLR_ERROR, "Cannot create a Wayland socket");
			return false;
		}
	}
	/* Without the gate the trace comes from libwayland's protocol logger:
	 * requests as they run, events as fairway's loop flushes them. */
	return sched->config->trace_path == NULL ||
			start_trace(sched, sched->config->trace_path);
}

struct fw_sched *fw_sched_create(
		struct fw_server *server, const struct fw_sched_config *config) {
	struct fw_sched *sched = calloc(1, sizeof(*sched));
	if (sched == NULL) {
		return NULL;
	}
	sched->server = server;
	sched->config = config;
	bool listening = config->enabled ? listen_through_gate(sched)
									 : listen_through_libwayland(sched);
	if (listening) {
		sched->clients = fw_client_list_create(server->display, sched->gate);
	}
	if (sched->clients == NULL) {
		fw_sched_destroy(sched);
		return NULL;
	}
	return sched;
}

void fw_sched_destroy(struct fw_sched *sched) {
	if (sched == NULL) {
		return;
	}
	if (sched->sigusr1_source != NULL) {
		wl_event_source_remove(sched->sigusr1_source);
	}
	if (sched->gate != NULL) {
		gate_set_trace(sched->gate, NULL);
	}
	gate_trace_destroy(sched->trace);
	capped_file_close(sched->trace_file);
	gate_stats_file_destroy(sched->stats);
	capped_file_close(sched->stats_file);
	fw_client_create_set_gate(NULL);
	fw_client_list_destroy(sched->clients);
	gate_destroy(sched->gate);
	free(sched);
}

const char *fw_sched_socket_name(const struct fw_sched *sched) {
	return sched->socket_name;
}

struct wl_client *fw_sched_adopt_client(struct fw_sched *sched, int fd) {
	if (sched->gate != NULL) {
		return gate_adopt(sched->gate, fd);
	}
	struct wl_client *client =
			fw_client_create_real(sched->server->display, fd);
	if (client == NULL) {
		close(fd);
	}
	return client;
}

struct gate *fw_sched_get_gate(const struct fw_sched *sched) {
	return sched != NULL ? sched->gate : NULL;
}

struct fw_client_list *fw_sched_get_clients(const struct fw_sched *sched) {
	return sched->clients;
}

struct gate_trace *fw_sched_get_trace(const struct fw_sched *sched) {
	return sched != NULL ? sched->trace : NULL;
}

void fw_sched_run(struct fw_sched *sched) {
	struct wl_display *display = sched->server->display;
	sched->running = true;
	while (sched->running) {
		if (sched->gate != NULL) {
			gate_iterate(sched->gate);
			continue;
		}
		wl_display_flush_clients(display);
		gate_trace_flushed(sched->trace);
		/* A debugger attaching, or a stop and continue, interrupts the
		 * wait (EINTR): only another error ends fairway. */
		if (wl_event_loop_dispatch(sched->server->loop, -1) < 0 &&
				errno != EINTR) {
			wlr_log_errno(WLR_ERROR, "Event loop dispatch failed");
			break;
		}
	}
}

void fw_sched_stop(struct fw_sched *sched) {
	sched->running = false;
	/* Wakes the loop if we are called from outside of it. */
	wl_display_terminate(sched->server->display);
}

void fw_sched_apply_config(struct fw_sched *sched) {
	if (sched->gate == NULL) {
		return;
	}
	struct sched_params params;
	derive_params(sched->config, &params);
	gate_set_sched_params(sched->gate, &params);
	log_params(&params);
}

bool fw_sched_set_client_priority(
		struct fw_sched *sched, struct wl_client *client, int priority) {
	return sched->gate != NULL &&
			gate_set_client_priority(sched->gate, client, priority);
}

void fw_sched_set_stats_extra(
		struct fw_sched *sched, const struct gate_stats_extra *extra) {
	if (sched->stats != NULL) {
		gate_stats_file_set_extra(sched->stats, extra);
	}
}

void fw_sched_note_input(struct fw_sched *sched, struct wl_client *client) {
	struct gate *gate = fw_sched_get_gate(sched);
	if (gate != NULL && client != NULL) {
		gate_note_input(gate, client);
	}
}

void fw_sched_note_window_event(
		struct fw_sched *sched, struct wlr_surface *surface) {
	if (surface != NULL && surface->resource != NULL) {
		fw_sched_note_input(sched, wl_resource_get_client(surface->resource));
	}
}
