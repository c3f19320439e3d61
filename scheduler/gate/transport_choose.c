#include "scheduler/gate/transport_choose.h"
#include "scheduler/log.h"
#include "scheduler/wire/stream.h"
#include "scheduler/wire/wire.h"
#include <unistd.h>
#include <wayland-server-protocol.h>

/* The probe's request, wl_display.sync (opcode 0), and the id it asks for. */
#define DISPLAY_SYNC 0
#define PROBE_CALLBACK_ID 2

struct probe {
	struct wayland_end_owner owner;
	struct stream requests, events;
};

static void probe_requests_taken(struct wayland_end_owner *owner, size_t n) {
}

static void probe_events_added(struct wayland_end_owner *owner) {
}

static void probe_socket_drained(struct wayland_end_owner *owner) {
}

static const struct wayland_end_owner_impl probe_impl = {
		.requests_taken = probe_requests_taken,
		.events_added = probe_events_added,
		.socket_drained = probe_socket_drained,
};

/* Whether libwayland's answer, wl_callback.done, is among the events. */
static bool answered(const struct stream *events) {
	const uint8_t *data = stream_data(events);
	size_t len = stream_len(events);
	for (size_t at = 0; at + WIRE_HEADER_SIZE <= len;) {
		struct wire_header header;
		wire_read_header(data + at, &header);
		if (!wire_size_valid(header.size)) {
			return false;
		}
		if (header.object_id == PROBE_CALLBACK_ID &&
				header.opcode == WL_CALLBACK_DONE) {
			return true;
		}
		at += header.size;
	}
	return false;
}

/* Runs a sync through the memory transport; NULL, or why it failed. */
static const char *probe_memory(struct wl_display *display,
		struct wl_client *(*create_client)(struct wl_display *, int)) {
	struct probe probe = {
			.owner =
					{
							.impl = &probe_impl,
							.requests = &probe.requests,
							.events = &probe.events,
					},
	};
	stream_init(&probe.requests);
	stream_init(&probe.events);
	const struct gate_transport *memory = &gate_transport_memory;
	int fd;
	struct wayland_end *end = memory->attach(
			wl_display_get_event_loop(display), &probe.owner, &fd);
	if (!end) {
		return "its socketpair could not be made";
	}
	const char *why = NULL;
	struct wl_client *client = create_client(display, fd);
	if (!client) {
		why = "wl_client_create failed";
		memory->detach(end);
		close(fd);
		goto out;
	}
	if (!memory->attached(end)) {
		why = "libwayland registered its end without the shim seeing it "
			  "(wl_event_loop_add_fd is not the executable's)";
		goto out_client;
	}
	uint32_t sync[3];
	sync[0] = 1; /* wl_display */
	sync[1] = (uint32_t)sizeof(sync) << 16 | DISPLAY_SYNC;
	sync[2] = PROBE_CALLBACK_ID;
	if (stream_append(&probe.requests, sync, sizeof(sync)) < 0) {
		why = "out of memory";
		goto out_client;
	}
	probe.owner.released = sizeof(sync);
	if (memory->serve(end) != WAYLAND_END_SERVED) {
		why = "libwayland's read did not come through the shim (recvmsg "
			  "is not the executable's)";
		goto out_client;
	}
	wl_client_flush(client);
	if (!answered(&probe.events)) {
		why = "libwayland's answer did not come through the shim (sendmsg "
			  "is not the executable's)";
	}
out_client:
	memory->detach(end);
	wl_client_destroy(client);
out:
	stream_finish(&probe.requests);
	stream_finish(&probe.events);
	return why;
}

const struct gate_transport *gate_transport_choose(struct wl_display *display,
		enum gate_transport_choice choice,
		struct wl_client *(*create_client)(struct wl_display *, int)) {
	if (choice == GATE_TRANSPORT_SOCKETPAIR) {
		sched_log(SCHED_LOG_INFO, "gate transport: socketpair, as asked");
		return &gate_transport_socketpair;
	}
	const char *why = probe_memory(display, create_client);
	if (choice == GATE_TRANSPORT_MEMORY) {
		if (why) {
			sched_log(SCHED_LOG_ERROR,
					"gate transport: memory was asked for, but libwayland "
					"cannot be served from memory here: %s",
					why);
			return NULL;
		}
		sched_log(SCHED_LOG_INFO, "gate transport: memory, as asked");
		return &gate_transport_memory;
	}
	if (why) {
		sched_log(SCHED_LOG_ERROR,
				"warning: gate transport: socketpair, as libwayland cannot "
				"be served from memory here: %s; clients pay a few syscalls "
				"more a round trip",
				why);
		return &gate_transport_socketpair;
	}
	sched_log(SCHED_LOG_INFO,
			"gate transport: memory, as libwayland's socket calls reach "
			"the gate");
	return &gate_transport_memory;
}
