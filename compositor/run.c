#include "compositor/server.h"
#include "scheduler/gate.h"
#include "scheduler/trace.h"
#include <wayland-server-core.h>
#include <wlr/util/log.h>

int fw_server_run(struct fw_server *server) {
	server->running = true;
	while (server->running) {
		if (server->gate != NULL) {
			gate_iterate(server->gate);
			continue;
		}
		wl_display_flush_clients(server->display);
		gate_trace_flushed(server->trace);
		if (wl_event_loop_dispatch(server->loop, -1) < 0) {
			wlr_log_errno(WLR_ERROR, "Event loop dispatch failed");
			break;
		}
	}
	return server->exit_status;
}
