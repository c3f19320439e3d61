#include "scheduler/trace/trace.h"
#include "scheduler/capped_file.h"
#include "scheduler/sched_clock.h"
#include "scheduler/wire/wire.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server-core.h>

#define TRACE_FORMAT_VERSION 2
/* New objects one request may create that the trace follows: core and
 * common protocols create one at most. */
#define MAX_NEW_IDS 4
/* Events queued and not yet flushed (not gated) before they are written
 * at once: fairway's loop flushes every turn, so only a stuck loop gets
 * there. */
#define MAX_PENDING_EVENTS 65536

/* One connection, from the trace's point of view. */
struct trace_client {
	struct gate_trace *trace;
	uint32_t id;
	pid_t pid;
	uint64_t dispatched; /* requests libwayland ran: the latest one's seq */
	uint64_t queued; /* events libwayland queued */
	uint64_t sent; /* events written as sent */
	/*
	 * The objects the latest request created whose answer has not come,
	 * while events queued since it began have not gone out (queued_before:
	 * what was queued when it began).
	 */
	uint32_t new_ids[MAX_NEW_IDS];
	size_t new_count;
	uint64_t queued_before;
	const char *request_interface, *request_name; /* static: libwayland's */
	bool requests_full, events_waiting;
	bool flush_due; /* write_pending's own */
	struct wl_listener destroy;
	struct wl_list link; /* gate_trace.clients */
};

/* Not gated: an event libwayland queued, written once it is flushed. */
struct pending_event {
	struct trace_client *tc;
	uint32_t object, opcode, size;
};

struct gate_trace {
	struct capped_file *out;
	int64_t start_ns;
	bool gated;
	uint32_t next_id;
	struct wl_list clients; /* trace_client.link */
	struct wl_protocol_logger *logger;
	struct wl_listener client_created; /* not gated only */
	struct wl_listener display_destroy;
	struct pending_event *pending;
	size_t pending_count, pending_capacity;
};

static double seconds(const struct gate_trace *trace) {
	return (sched_clock_now_ns() - trace->start_ns) / 1e9;
}

/* A process name, safe inside a JSON string. */
static void read_comm(pid_t pid, char *out, size_t size) {
	out[0] = '\0';
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return;
	}
	ssize_t n = read(fd, out, size - 1);
	close(fd);
	n = n < 0 ? 0 : n;
	out[n] = '\0';
	for (ssize_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];
		if (c == '\n') {
			out[i] = '\0';
			break;
		}
		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
			out[i] = '_';
		}
	}
}

static void write_identity(struct trace_client *tc, const char *dir) {
	char comm[32];
	read_comm(tc->pid, comm, sizeof(comm));
	capped_file_printf(tc->trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"%s\","
			"\"comm\":\"%s\"}\n",
			seconds(tc->trace), (int)tc->pid, tc->id, dir, comm);
}

static void write_event(struct trace_client *tc, uint32_t object,
		uint32_t opcode, uint32_t size) {
	tc->sent++;
	capped_file_printf(tc->trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"event\","
			"\"object\":%u,\"opcode\":%u,\"size\":%u}\n",
			seconds(tc->trace), (int)tc->pid, tc->id, object, opcode, size);
}

/*
 * Not gated: writes the pending events of tc (of every client if NULL) as
 * sent now. Unless forced, those of a client go only if one of them was
 * posted: libwayland's flush sends nothing to a client that has only
 * queued ones (wl_display.delete_id, which libwayland queues, not posts).
 */
static void write_pending(
		struct gate_trace *trace, struct trace_client *tc, bool force) {
	for (size_t i = 0; i < trace->pending_count; i++) {
		struct pending_event *e = &trace->pending[i];
		bool delete_id = e->object == 1 && e->opcode == 1;
		e->tc->flush_due |= force || !delete_id;
	}
	size_t kept = 0;
	for (size_t i = 0; i < trace->pending_count; i++) {
		struct pending_event *e = &trace->pending[i];
		if ((tc == NULL || e->tc == tc) && e->tc->flush_due) {
			write_event(e->tc, e->object, e->opcode, e->size);
		} else {
			trace->pending[kept++] = *e;
		}
	}
	trace->pending_count = kept;
	struct trace_client *each;
	wl_list_for_each(each, &trace->clients, link) {
		each->flush_due = false;
	}
}

static void client_free(struct trace_client *tc) {
	wl_list_remove(&tc->destroy.link);
	wl_list_remove(&tc->link);
	free(tc);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct trace_client *tc = wl_container_of(listener, tc, destroy);
	struct gate_trace *trace = tc->trace;
	write_pending(trace, tc, true);
	capped_file_printf(trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"disconnect\"}\n",
			seconds(trace), (int)tc->pid, tc->id);
	capped_file_flush(trace->out);
	client_free(tc);
}

static struct trace_client *client_find(struct wl_client *client) {
	struct wl_listener *listener =
			wl_client_get_destroy_listener(client, handle_client_destroy);
	if (listener == NULL) {
		return NULL;
	}
	struct trace_client *tc = wl_container_of(listener, tc, destroy);
	return tc;
}

static struct trace_client *client_add(
		struct gate_trace *trace, struct wl_client *client, pid_t pid) {
	struct trace_client *tc = calloc(1, sizeof(*tc));
	if (tc == NULL) {
		return NULL;
	}
	tc->trace = trace;
	tc->id = ++trace->next_id;
	tc->pid = pid;
	tc->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(client, &tc->destroy);
	wl_list_insert(trace->clients.prev, &tc->link);
	write_identity(tc, "connect");
	return tc;
}

static pid_t credentials_pid(struct wl_client *client) {
	pid_t pid = 0;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	return pid;
}

/*
 * The client's record, or NULL for one that connected before the trace
 * began (or is past its disconnect record); pid 0: the caller does not
 * know it.
 */
static struct trace_client *client_get(
		struct gate_trace *trace, struct wl_client *client, pid_t pid) {
	struct trace_client *tc = client_find(client);
	if (tc != NULL && pid != 0 && pid != tc->pid) {
		tc->pid = pid;
		write_identity(tc, "pid");
	}
	return tc;
}

static size_t padded(size_t len) {
	return (len + 3) & ~(size_t)3;
}

/*
 * The message's size on the wire: the header and 4 bytes an argument,
 * strings and arrays padded, fds passed beside. The new object ids of a
 * request go to tc, when given.
 */
static size_t wire_size(const struct wl_protocol_logger_message *message,
		struct trace_client *tc) {
	size_t size = WIRE_HEADER_SIZE;
	int i = 0;
	for (const char *s = message->message->signature;
			*s != '\0' && i < message->arguments_count; s++) {
		const union wl_argument *arg = &message->arguments[i];
		if (*s == '?' || (*s >= '0' && *s <= '9')) {
			continue; /* nullable, or the version it came with */
		}
		if (*s == 's') {
			size += 4 + (arg->s != NULL ? padded(strlen(arg->s) + 1) : 0);
		} else if (*s == 'a') {
			size += 4 + (arg->a != NULL ? padded(arg->a->size) : 0);
		} else if (*s != 'h') {
			size += 4;
		}
		if (*s == 'n' && tc != NULL && arg->n != 0 &&
				tc->new_count < MAX_NEW_IDS) {
			tc->new_ids[tc->new_count++] = arg->n;
		}
		i++;
	}
	return size;
}

/*
 * Notes the request libwayland is about to run: its new objects, and, not
 * gated, the request itself.
 */
static void note_request(struct gate_trace *trace, struct trace_client *tc,
		const struct wl_protocol_logger_message *message) {
	tc->dispatched++;
	tc->queued_before = tc->queued;
	tc->new_count = 0;
	tc->request_interface = wl_resource_get_class(message->resource);
	tc->request_name = message->message->name;
	size_t size = wire_size(message, tc);
	if (!trace->gated) {
		capped_file_printf(trace->out,
				"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"request\","
				"\"object\":%u,\"opcode\":%u,\"size\":%zu}\n",
				seconds(trace), (int)tc->pid, tc->id,
				wl_resource_get_id(message->resource), message->message_opcode,
				size);
	}
}

static void pend_event(struct gate_trace *trace, struct trace_client *tc,
		const struct wl_protocol_logger_message *message) {
	uint32_t object = wl_resource_get_id(message->resource);
	uint32_t opcode = (uint32_t)message->message_opcode;
	uint32_t size = (uint32_t)wire_size(message, NULL);
	if (trace->pending_count == trace->pending_capacity) {
		size_t capacity =
				trace->pending_capacity ? trace->pending_capacity * 2 : 256;
		struct pending_event *grown = capacity <= MAX_PENDING_EVENTS
				? realloc(trace->pending, capacity * sizeof(*grown))
				: NULL;
		if (grown == NULL) {
			write_pending(trace, NULL, true);
			write_event(tc, object, opcode, size);
			return;
		}
		trace->pending = grown;
		trace->pending_capacity = capacity;
	}
	trace->pending[trace->pending_count++] =
			(struct pending_event){tc, object, opcode, size};
}

/*
 * An event libwayland queued. The first one on an object the client's
 * latest request created answers that request, if it comes while the
 * compositor still handles it: no later request has run, and nothing
 * queued since it began has gone out.
 */
static void note_event(struct gate_trace *trace, struct trace_client *tc,
		const struct wl_protocol_logger_message *message) {
	tc->queued++;
	if (tc->sent > tc->queued_before) {
		tc->new_count = 0;
	}
	uint32_t object = wl_resource_get_id(message->resource);
	for (size_t i = 0; i < tc->new_count; i++) {
		if (tc->new_ids[i] != object) {
			continue;
		}
		tc->new_ids[i] = tc->new_ids[--tc->new_count];
		capped_file_printf(trace->out,
				"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"reply\","
				"\"seq\":%llu,\"object\":%u,\"opcode\":%d,"
				"\"request\":\"%s.%s\",\"interface\":\"%s\"}\n",
				seconds(trace), (int)tc->pid, tc->id,
				(unsigned long long)tc->dispatched, object,
				message->message_opcode, tc->request_interface,
				tc->request_name, wl_resource_get_class(message->resource));
		break;
	}
	if (!trace->gated) {
		pend_event(trace, tc, message);
	}
}

static void handle_message(void *data, enum wl_protocol_logger_type type,
		const struct wl_protocol_logger_message *message) {
	struct gate_trace *trace = data;
	struct wl_client *client = wl_resource_get_client(message->resource);
	struct trace_client *tc = client_get(trace, client, 0);
	if (tc == NULL) {
		return;
	}
	if (type == WL_PROTOCOL_LOGGER_REQUEST) {
		note_request(trace, tc, message);
	} else {
		note_event(trace, tc, message);
	}
}

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct gate_trace *trace = wl_container_of(listener, trace, client_created);
	struct wl_client *client = data;
	if (client_find(client) == NULL) {
		client_add(trace, client, credentials_pid(client));
	}
}

/* The display's loggers and signals go with it: let go of them first. */
static void detach_display(struct gate_trace *trace) {
	if (trace->logger == NULL) {
		return;
	}
	wl_protocol_logger_destroy(trace->logger);
	trace->logger = NULL;
	wl_list_remove(&trace->client_created.link);
	wl_list_remove(&trace->display_destroy.link);
}

static void handle_display_destroy(struct wl_listener *listener, void *data) {
	struct gate_trace *trace =
			wl_container_of(listener, trace, display_destroy);
	detach_display(trace);
}

struct gate_trace *gate_trace_create(
		struct capped_file *out, struct wl_display *display, bool gated) {
	struct gate_trace *trace = calloc(1, sizeof(*trace));
	if (!trace) {
		return NULL;
	}
	trace->out = out;
	trace->gated = gated;
	trace->start_ns = sched_clock_now_ns();
	wl_list_init(&trace->clients);
	trace->logger =
			wl_display_add_protocol_logger(display, handle_message, trace);
	if (trace->logger == NULL) {
		free(trace);
		return NULL;
	}
	wl_list_init(&trace->client_created.link);
	if (!gated) {
		trace->client_created.notify = handle_client_created;
		wl_display_add_client_created_listener(display, &trace->client_created);
	}
	trace->display_destroy.notify = handle_display_destroy;
	wl_display_add_destroy_listener(display, &trace->display_destroy);
	capped_file_printf(out,
			"{\"t\":0.000000,\"pid\":%d,\"dir\":\"start\",\"version\":%d,"
			"\"gated\":%s,\"monotonic\":%.6f}\n",
			(int)getpid(), TRACE_FORMAT_VERSION, gated ? "true" : "false",
			trace->start_ns / 1e9);
	/* What a reader needs to put the trace on its own clock. */
	capped_file_flush(out);
	return trace;
}

void gate_trace_destroy(struct gate_trace *trace) {
	if (!trace) {
		return;
	}
	write_pending(trace, NULL, true);
	detach_display(trace);
	struct trace_client *tc, *tmp;
	wl_list_for_each_safe(tc, tmp, &trace->clients, link) {
		client_free(tc);
	}
	free(trace->pending);
	capped_file_flush(trace->out);
	free(trace);
}

void gate_trace_connect(
		struct gate_trace *trace, struct wl_client *client, pid_t pid) {
	if (trace != NULL && client_find(client) == NULL) {
		client_add(trace, client, pid);
	}
}

void gate_trace_message(struct gate_trace *trace, struct wl_client *client,
		pid_t pid, bool event, const struct wire_header *header) {
	if (trace == NULL) {
		return;
	}
	struct trace_client *tc = client_get(trace, client, pid);
	if (tc == NULL) {
		return;
	}
	if (event) {
		write_event(tc, header->object_id, header->opcode, header->size);
		return;
	}
	capped_file_printf(trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"request\","
			"\"object\":%u,\"opcode\":%u,\"size\":%u}\n",
			seconds(trace), (int)tc->pid, tc->id, header->object_id,
			header->opcode, header->size);
}

void gate_trace_messages(struct gate_trace *trace, struct wl_client *client,
		pid_t pid, bool events, const uint8_t *buf, size_t len) {
	size_t at = 0;
	while (trace != NULL && len - at >= WIRE_HEADER_SIZE) {
		struct wire_header header;
		wire_read_header(buf + at, &header);
		if (!wire_size_valid(header.size) || header.size > len - at) {
			break;
		}
		gate_trace_message(trace, client, pid, events, &header);
		at += header.size;
	}
}

void gate_trace_forward(struct gate_trace *trace, struct wl_client *client,
		pid_t pid, size_t messages, size_t bytes) {
	struct trace_client *tc =
			trace != NULL ? client_get(trace, client, pid) : NULL;
	if (tc == NULL) {
		return;
	}
	capped_file_printf(trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"forward\","
			"\"messages\":%zu,\"bytes\":%zu}\n",
			seconds(trace), (int)tc->pid, tc->id, messages, bytes);
}

void gate_trace_queues(struct gate_trace *trace, struct wl_client *client,
		pid_t pid, bool requests_full, bool events_waiting) {
	struct trace_client *tc =
			trace != NULL ? client_get(trace, client, pid) : NULL;
	if (tc == NULL ||
			(tc->requests_full == requests_full &&
					tc->events_waiting == events_waiting)) {
		return;
	}
	tc->requests_full = requests_full;
	tc->events_waiting = events_waiting;
	capped_file_printf(trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"queues\","
			"\"requests_full\":%s,\"events_waiting\":%s}\n",
			seconds(trace), (int)tc->pid, tc->id,
			requests_full ? "true" : "false",
			events_waiting ? "true" : "false");
}

void gate_trace_flushed(struct gate_trace *trace) {
	if (trace != NULL && trace->pending_count > 0) {
		write_pending(trace, NULL, false);
	}
}

void gate_trace_presented(
		struct gate_trace *trace, struct wl_resource *surface) {
	if (trace == NULL || surface == NULL) {
		return;
	}
	struct trace_client *tc =
			client_get(trace, wl_resource_get_client(surface), 0);
	if (tc == NULL) {
		return;
	}
	capped_file_printf(trace->out,
			"{\"t\":%.6f,\"pid\":%d,\"client\":%u,\"dir\":\"presented\","
			"\"surface\":%u}\n",
			seconds(trace), (int)tc->pid, tc->id, wl_resource_get_id(surface));
	/* Harnesses wait for this one: let them see it now. */
	capped_file_flush(trace->out);
}
