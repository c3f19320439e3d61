/*
 * The gate end to end, without wlroots: a real libwayland display behind
 * the gate, and forked clients that speak the wire format by hand, good and
 * bad. Each case checks that the offending client alone is disconnected,
 * with a wl_display.error it can read, while a well-behaved client keeps
 * being served, and that the server leaks no fds.
 */
#include "tests/common/client_watch.h"
#include "tests/common/gate_harness.h"
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server.h>

/* --- cases ------------------------------------------------------------- */

struct bad_case {
	const void *bytes;
	size_t len;
	const int *fds;
	int nfds;
	bool expect_error_event;
};

static void bad_client(const void *data) {
	const struct bad_case *bad = data;
	int fd = raw_connect();
	/* A good request first: it must still be answered. */
	CHECK(raw_sync(fd, 2));
	CHECK(raw_send(fd, bad->bytes, bad->len, bad->fds, bad->nfds));
	struct raw_events events = {0};
	raw_read(fd, &events, 0);
	if (bad->expect_error_event) {
		CHECK(events.error);
		CHECK(events.error_code == WL_DISPLAY_ERROR_INVALID_METHOD);
	}
	_exit(0);
}

/* Runs one bad client beside a good one; both must end as expected. */
static void run_bad_case(struct bad_case *bad) {
	struct server server = {0};
	server_init(&server);
	int fds_before = count_fds();
	/* The gate sees the hang-ups before the fds are counted. */
	serve_beside_good(&server, bad_client, bad, 50);
	CHECK(count_fds() == fds_before);
	server_finish(&server);
}

static void case_bogus_sizes(void) {
	for (uint32_t size = 0; size < 12; size++) {
		if (size == 8) {
			continue;
		}
		uint32_t msg[4] = {0};
		put_header(msg, 1, size, 0);
		struct bad_case bad = {
				.bytes = msg,
				.len = sizeof(msg),
				.expect_error_event = true,
		};
		fprintf(stderr, "size %u\n", size);
		run_bad_case(&bad);
	}
	uint32_t sizes[] = {4097, 4100, 65532, 65535};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t msg[4] = {0};
		put_header(msg, 1, sizes[i], 0);
		struct bad_case bad = {
				.bytes = msg,
				.len = sizeof(msg),
				.expect_error_event = true,
		};
		fprintf(stderr, "size %u\n", sizes[i]);
		run_bad_case(&bad);
	}
}

static void case_fd_flood(void) {
	int fds[60];
	for (int i = 0; i < 60; i++) {
		fds[i] = STDERR_FILENO;
	}
	uint32_t msg[3];
	put_header(msg, 1, sizeof(msg), 0);
	msg[2] = 3;
	struct bad_case bad = {
			.bytes = msg,
			.len = sizeof(msg),
			.fds = fds,
			.nfds = 60,
			.expect_error_event = true,
	};
	run_bad_case(&bad);
}

/* Truncated message, then hang-up: only that client goes. */
static void truncated_client(const void *data) {
	int fd = raw_connect();
	uint32_t msg[3];
	put_header(msg, 1, sizeof(msg), 0);
	msg[2] = 2;
	CHECK(raw_send(fd, msg, 10, NULL, 0));
	int fds[2] = {STDERR_FILENO, STDOUT_FILENO};
	CHECK(raw_send(fd, "\0\0", 2, fds, 2)); /* fds in flight at the hang-up */
	close(fd);
	_exit(0);
}

static void case_truncated_hangup(void) {
	struct server server = {0};
	server_init(&server);
	int fds_before = count_fds();
	int roundtrips = 20;
	pid_t pids[3] = {
			spawn(truncated_client, NULL),
			spawn(good_body, &roundtrips),
			spawn(truncated_client, NULL),
	};
	int status[3];
	serve_until_exit(&server, pids, status, 3);
	for (int i = 0; i < 3; i++) {
		CHECK(WIFEXITED(status[i]) && WEXITSTATUS(status[i]) == 0);
	}
	serve_until_idle(&server);
	CHECK(count_fds() == fds_before);
	server_finish(&server);
}

/*
 * Requests split at every byte boundary, arriving in separate reads: each
 * sync is still answered, in order.
 */
static void split_client(const void *data) {
	int fd = raw_connect();
	uint8_t stream[12 * 8];
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t msg[3];
		put_header(msg, 1, sizeof(msg), 0);
		msg[2] = 2 + i;
		memcpy(stream + 12 * i, msg, 12);
	}
	for (size_t split = 1; split < sizeof(stream); split++) {
		CHECK(raw_send(fd, stream, split, NULL, 0));
		usleep(200);
		CHECK(raw_send(fd, stream + split, sizeof(stream) - split, NULL, 0));
	}
	shutdown(fd, SHUT_WR);
	struct raw_events events = {0};
	raw_read(fd, &events, 0);
	CHECK(!events.error);
	CHECK(events.done_count == 8 * (int)(sizeof(stream) - 1));
	CHECK(events.last_done == 9);
	_exit(0);
}

/* fds sent before the bytes that use them: wl_shm pools still work. */
static void early_fd_client(const void *data) {
	struct wl_display *display = wl_display_connect(socket_path);
	CHECK(display);
	CHECK(wl_display_roundtrip(display) >= 0);
	wl_display_disconnect(display);

	int fd = raw_connect();
	/* get_registry(2), then bind wl_shm by name found in the events */
	uint32_t get_registry[3];
	put_header(get_registry, 1, 12, 1);
	get_registry[2] = 2;
	CHECK(raw_send(fd, get_registry, sizeof(get_registry), NULL, 0));
	CHECK(raw_sync(fd, 3));
	uint8_t buf[4096];
	size_t len = 0;
	uint32_t shm_name = 0;
	bool synced = false;
	while (!synced) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - len);
		CHECK(n > 0);
		len += n;
		size_t off = 0;
		while (len - off >= 8) {
			uint32_t words[2];
			memcpy(words, buf + off, 8);
			uint32_t size = words[1] >> 16;
			if (len - off < size) {
				break;
			}
			if (words[0] == 2 && (words[1] & 0xffff) == 0 &&
					strcmp((char *)buf + off + 16, "wl_shm") == 0) {
				memcpy(&shm_name, buf + off + 8, 4);
			} else if (words[0] == 3) {
				synced = true;
			}
			off += size;
		}
		memmove(buf, buf + off, len - off);
		len -= off;
	}
	CHECK(shm_name != 0);
	uint32_t bind[8];
	put_header(bind, 2, sizeof(bind), 0);
	bind[2] = shm_name;
	bind[3] = 7; /* strlen("wl_shm") + 1 */
	memcpy(&bind[4], "wl_shm\0\0", 8);
	bind[6] = 1;
	bind[7] = 4; /* new id */
	CHECK(raw_send(fd, bind, sizeof(bind), NULL, 0));

	int pool_fd = memfd_create("pool", MFD_CLOEXEC);
	CHECK(pool_fd >= 0 && ftruncate(pool_fd, 4096) == 0);
	/* The fd rides on an earlier sync; create_pool follows in a later send. */
	uint32_t sync[3];
	put_header(sync, 1, 12, 0);
	sync[2] = 5;
	CHECK(raw_send(fd, sync, sizeof(sync), &pool_fd, 1));
	usleep(20000);
	uint32_t create_pool[4];
	put_header(create_pool, 4, sizeof(create_pool), 0);
	create_pool[2] = 6;
	create_pool[3] = 4096;
	CHECK(raw_send(fd, create_pool, sizeof(create_pool), NULL, 0));
	CHECK(raw_sync(fd, 7));
	shutdown(fd, SHUT_WR);
	struct raw_events events = {0};
	raw_read(fd, &events, 0);
	CHECK(!events.error);
	if (events.last_done != 7) {
		fprintf(stderr, "last done %u count %d\n", events.last_done,
				events.done_count);
	}
	CHECK(events.last_done == 7);
	_exit(0);
}

static void run_clients(void (*body)(const void *), int count) {
	struct server server = {0};
	server_init(&server);
	int fds_before = count_fds();
	pid_t pids[8];
	int status[8];
	for (int i = 0; i < count; i++) {
		pids[i] = spawn(body, NULL);
	}
	serve_until_exit(&server, pids, status, count);
	for (int i = 0; i < count; i++) {
		CHECK(WIFEXITED(status[i]) && WEXITSTATUS(status[i]) == 0);
	}
	serve_until_idle(&server);
	CHECK(count_fds() == fds_before);
	server_finish(&server);
}

/* A sync flooder: as many syncs as the socket takes, reading the answers. */
static void flood_client(const void *data) {
	struct wl_display *display = wl_display_connect(socket_path);
	CHECK(display);
	int fd = wl_display_get_fd(display);
	time_t end = time(NULL) + 5;
	long requests = 0;
	while (time(NULL) < end) {
		requests += 200;
		for (int i = 0; i < 200; i++) {
			struct wl_callback *callback = wl_display_sync(display);
			wl_callback_destroy(callback);
		}
		while (wl_display_flush(display) < 0 && errno == EAGAIN) {
			struct pollfd pfd = {.fd = fd, .events = POLLOUT | POLLIN};
			poll(&pfd, 1, 100);
			wl_display_dispatch_pending(display);
			if (pfd.revents & POLLIN) {
				wl_display_prepare_read(display);
				wl_display_read_events(display);
			}
		}
		if (wl_display_prepare_read(display) == 0) {
			struct pollfd pfd = {.fd = fd, .events = POLLIN};
			if (poll(&pfd, 1, 0) == 1) {
				wl_display_read_events(display);
			} else {
				wl_display_cancel_read(display);
			}
		}
		wl_display_dispatch_pending(display);
	}
	CHECK(wl_display_roundtrip(display) >= 0);
	wl_display_disconnect(display);
	fprintf(stderr, "flooder: %ld requests\n", requests);
	CHECK(requests > 10000);
	_exit(0);
}

static void probe_body(const void *data) {
	usleep(300000); /* let the flooders fill their queues first */
	good_client(100);
}

/* Four flooders and a probe: the probe is served, the flooders progress. */
static void case_flood(void) {
	struct server server = {0};
	server_init(&server);
	pid_t pids[5];
	int status[5];
	for (int i = 0; i < 4; i++) {
		pids[i] = spawn(flood_client, NULL);
	}
	pids[4] = spawn(probe_body, NULL);
	serve_until_exit(&server, pids, status, 5);
	for (int i = 0; i < 5; i++) {
		CHECK(WIFEXITED(status[i]) && WEXITSTATUS(status[i]) == 0);
	}
	/* The probe's 100 roundtrips finished while the flood went on. */
	CHECK(server.exit_order[0] == 4);
	server_finish(&server);
}

/*
 * Early answers: syncs 2-8 arrive in one write. The first batch is sized
 * by the cost a request is assumed to have before any was measured, to
 * three syncs: it leaves four queued, so its answers wait for its end.
 * The second takes the rest and empties the queue: the client is waiting
 * for us, and the answer to its first sync goes out before its third
 * runs; the others, after it.
 */
#define EARLY_SYNCS 7
#define EARLY_FIRST_ID 2
#define EARLY_FIRST_BATCH 3
/* What sched_entity_request_cost assumes before a batch is measured. */
#define INITIAL_REQUEST_COST_NS 2000
/* wl_callback.done and wl_display.delete_id, 12 bytes each. */
#define SYNC_ANSWER_BYTES 24

struct early_watch {
	struct gate *gate;
	/* The client's event bytes sent when each sync was about to run. */
	uint64_t sent_before[EARLY_FIRST_ID + EARLY_SYNCS];
};

/*
 * Added after the gate's protocol logger, and so (libwayland calls the
 * newest first) run before it: what it sees is what the gate had sent
 * before this request, not at it.
 */
static void watch_syncs(void *data, enum wl_protocol_logger_type type,
		const struct wl_protocol_logger_message *message) {
	struct early_watch *watch = data;
	if (type != WL_PROTOCOL_LOGGER_REQUEST ||
			strcmp(wl_resource_get_class(message->resource), "wl_display") !=
					0 ||
			message->message_opcode != WL_DISPLAY_SYNC) {
		return;
	}
	uint32_t id = message->arguments[0].n;
	CHECK(id >= EARLY_FIRST_ID && id < EARLY_FIRST_ID + EARLY_SYNCS);
	CHECK(watch->gate->batch.phase == GATE_BATCH_SERVING);
	struct gate_connection *conn = watch->gate->batch.conn;
	CHECK(conn && conn->client == wl_resource_get_client(message->resource));
	watch->sent_before[id] = conn->stats.event_bytes;
	if (id == EARLY_FIRST_ID + EARLY_FIRST_BATCH - 1) {
		/* The next batch is bounded by bytes alone: it takes the rest,
		 * whatever the first was measured to cost. */
		watch->gate->config.batch_target_ns = 1000000000;
		watch->gate->config.lone_batch_target_ns = 1000000000;
	}
}

static void early_client(const void *data) {
	int fd = raw_connect();
	uint32_t msgs[EARLY_SYNCS][3];
	for (int i = 0; i < EARLY_SYNCS; i++) {
		put_header(msgs[i], 1, sizeof(msgs[i]), 0);
		msgs[i][2] = EARLY_FIRST_ID + i;
	}
	CHECK(raw_send(fd, msgs, sizeof(msgs), NULL, 0));
	struct raw_events events = {0};
	raw_read(fd, &events, EARLY_FIRST_ID + EARLY_SYNCS - 1);
	CHECK(events.done_count == EARLY_SYNCS && !events.error);
	_exit(0);
}

static void case_early_answers(void) {
	struct gate_config config;
	gate_config_default(&config);
	config.batch_target_ns = EARLY_FIRST_BATCH * INITIAL_REQUEST_COST_NS;
	config.lone_batch_target_ns = config.batch_target_ns;
	struct server server = {0};
	server_init_with(&server, &config);
	struct early_watch watch = {.gate = server.gate};
	struct wl_protocol_logger *logger =
			wl_display_add_protocol_logger(server.display, watch_syncs, &watch);
	CHECK(logger);
	pid_t pids[1] = {spawn(early_client, NULL)};
	int status[1];
	serve_until_exit(&server, pids, status, 1);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	for (int id = EARLY_FIRST_ID; id < EARLY_FIRST_ID + EARLY_SYNCS; id++) {
		fprintf(stderr, "sync %d: %" PRIu64 " bytes sent before it ran\n", id,
				watch.sent_before[id]);
	}
	int last_of_first = EARLY_FIRST_ID + EARLY_FIRST_BATCH - 1;
	/* The first batch left syncs queued: nothing went out in its midst. */
	CHECK(watch.sent_before[last_of_first] == 0);
	/* Its answers went out at its end. */
	CHECK(watch.sent_before[last_of_first + 1] ==
			EARLY_FIRST_BATCH * SYNC_ANSWER_BYTES);
	/* The second emptied the queue: its first sync was answered before
	 * its third ran, and no other answer went out before its end. */
	CHECK(watch.sent_before[last_of_first + 3] ==
			(EARLY_FIRST_BATCH + 1) * SYNC_ANSWER_BYTES);
	CHECK(watch.sent_before[last_of_first + 4] ==
			(EARLY_FIRST_BATCH + 1) * SYNC_ANSWER_BYTES);
	wl_protocol_logger_destroy(logger);
	serve_until_idle(&server);
	server_finish(&server);
}

/* Holds 40 connections for a while, then drops them and is served. */
static void many_connections_client(const void *data) {
	/* The server's low limit is not the client's. */
	CHECK(setrlimit(RLIMIT_NOFILE, data) == 0);
	int fds[40];
	for (int i = 0; i < 40; i++) {
		fds[i] = raw_connect();
	}
	usleep(500000);
	for (int i = 0; i < 40; i++) {
		close(fds[i]);
	}
	good_client(10);
}

/*
 * Out of fds, accept fails while the socket stays readable: the gate must
 * neither spin nor lose the clients that wait, and serve again once fds
 * are free.
 */
static void case_out_of_fds(void) {
	struct server server = {0};
	server_init(&server);
	struct rlimit limit;
	CHECK(getrlimit(RLIMIT_NOFILE, &limit) == 0);
	struct rlimit low = {
			.rlim_cur = count_fds() + 20, .rlim_max = limit.rlim_max};
	CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0);
	struct rusage before, after;
	getrusage(RUSAGE_SELF, &before);
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	pid_t pids[1] = {spawn(many_connections_client, &limit)};
	int status[1];
	serve_until_exit(&server, pids, status, 1);
	clock_gettime(CLOCK_MONOTONIC, &end);
	getrusage(RUSAGE_SELF, &after);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	double wall =
			(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
	double cpu = (after.ru_utime.tv_sec - before.ru_utime.tv_sec) +
			(after.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e6 +
			(after.ru_stime.tv_sec - before.ru_stime.tv_sec) +
			(after.ru_stime.tv_usec - before.ru_stime.tv_usec) / 1e6;
	fprintf(stderr, "out of fds: %.3f s of CPU in %.3f s\n", cpu, wall);
	/* A spinning loop would use all of it. */
	CHECK(cpu < wall / 2);
	CHECK(setrlimit(RLIMIT_NOFILE, &limit) == 0);
	server_finish(&server);
}

/*
 * What the gate tells of its clients (gate.h), as a live view of them
 * would read it: each one announced as it comes and as it goes, counted,
 * and named by its own process, not by libwayland, whose end names the
 * gate's process whatever the transport.
 */
static enum wl_iterator_result count_connection(
		struct gate_connection *conn, void *data) {
	(*(int *)data)++;
	return WL_ITERATOR_CONTINUE;
}

/* Connects, is answered, then stays until told to go. */
static void waiting_client(const void *data) {
	int go = *(const int *)data;
	int fd = raw_connect();
	CHECK(raw_sync(fd, 2));
	struct raw_events events = {0};
	raw_read(fd, &events, 2);
	char byte;
	CHECK(read(go, &byte, 1) == 1);
	_exit(0);
}

static void case_clients(void) {
	struct server server = {0};
	server_init(&server);
	struct client_watch watch;
	client_watch_start(&watch, server.gate);
	int go[2];
	CHECK(pipe(go) == 0);
	pid_t pids[1] = {spawn(waiting_client, &go[0])};
	time_t deadline = time(NULL) + 30;
	while (watch.conn == NULL || gate_connection_service_ns(watch.conn) == 0) {
		CHECK(time(NULL) < deadline);
		gate_iterate(server.gate);
	}
	CHECK(watch.created == 1 && gate_connection_count(server.gate) == 1);
	int seen = 0;
	gate_for_each_connection(server.gate, count_connection, &seen);
	CHECK(seen == 1);
	struct wl_client *client = gate_connection_get_client(watch.conn);
	CHECK(gate_connection_from_client(client) == watch.conn);
	pid_t pid;
	uid_t uid;
	CHECK(gate_connection_get_process(watch.conn, &pid, &uid));
	CHECK(pid == pids[0] && uid == getuid());
	int pidfd = gate_connection_dup_pidfd(watch.conn);
	CHECK(pidfd >= 0);
	close(pidfd);
	/* What libwayland says is the gate's own process. */
	pid_t wayland_pid;
	wl_client_get_credentials(client, &wayland_pid, NULL, NULL);
	CHECK(wayland_pid == getpid());

	CHECK(write(go[1], "x", 1) == 1);
	int status[1];
	serve_until_exit(&server, pids, status, 1);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	serve_until_idle(&server);
	CHECK(watch.destroyed == 1 && watch.conn == NULL);
	CHECK(gate_connection_count(server.gate) == 0);
	client_watch_stop(&watch);
	close(go[0]);
	close(go[1]);
	server_finish(&server);
}

/*
 * Many requests in one write: the gate reads them all, checks them once,
 * and serves them in batches of at most batch_max_bytes, the last of
 * which takes all that is left without walking the headers again. Every
 * request is counted once, whichever way its batch was cut.
 */
#define COUNTED_SYNCS 1000

static void counted_client(const void *data) {
	int fd = raw_connect();
	static uint32_t msgs[COUNTED_SYNCS][3];
	for (int i = 0; i < COUNTED_SYNCS; i++) {
		put_header(msgs[i], 1, sizeof(msgs[i]), 0);
		msgs[i][2] = 2 + i;
	}
	CHECK(raw_send(fd, msgs, sizeof(msgs), NULL, 0));
	struct raw_events events = {0};
	raw_read(fd, &events, 2 + COUNTED_SYNCS - 1);
	CHECK(events.done_count == COUNTED_SYNCS && !events.error);
	_exit(0);
}

/* Serves one counted_client through a gate so configured. */
static void serve_counted(
		const struct gate_config *config, struct client_watch *watch) {
	struct server server = {0};
	server_init_with(&server, config);
	client_watch_start(watch, server.gate);
	pid_t pids[1] = {spawn(counted_client, NULL)};
	int status[1];
	serve_until_exit(&server, pids, status, 1);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	serve_until_idle(&server);
	CHECK(watch->destroyed == 1);
	fprintf(stderr, "%" PRIu64 " requests in %" PRIu64 " batches\n",
			watch->requests, watch->batches);
	CHECK(watch->requests == COUNTED_SYNCS);
	client_watch_stop(watch);
	server_finish(&server);
}

static void case_request_count(void) {
	struct gate_config config;
	gate_config_default(&config);
	struct client_watch watch;
	serve_counted(&config, &watch);
}

/*
 * A lone client that keeps its socket full is served more than one
 * libwayland read per batch: what it sent in one write takes one batch
 * (two, where the kernel split the write), not one per 4 KiB.
 */
static void case_lone_batches(void) {
	struct gate_config config;
	gate_config_default(&config);
	/* Batches bounded by bytes alone, whatever requests are measured to
	 * cost on a loaded machine. */
	sched_params_init(&config.sched, 1000000000);
	config.batch_target_ns = 1000000000;
	config.lone_batch_target_ns = 1000000000;
	struct client_watch watch;
	serve_counted(&config, &watch);
	CHECK(watch.batches <= 2);
}

int main(int argc, char *argv[]) {
	signal(SIGPIPE, SIG_IGN);
	if (argc != 2) {
		fprintf(stderr, "usage: gate-test CASE\n");
		return 2;
	}
	const char *name = argv[1];
	if (strcmp(name, "bogus-sizes") == 0) {
		case_bogus_sizes();
	} else if (strcmp(name, "fd-flood") == 0) {
		case_fd_flood();
	} else if (strcmp(name, "truncated-hangup") == 0) {
		case_truncated_hangup();
	} else if (strcmp(name, "split") == 0) {
		run_clients(split_client, 2);
	} else if (strcmp(name, "early-fd") == 0) {
		run_clients(early_fd_client, 1);
	} else if (strcmp(name, "flood") == 0) {
		case_flood();
	} else if (strcmp(name, "early-answers") == 0) {
		case_early_answers();
	} else if (strcmp(name, "out-of-fds") == 0) {
		case_out_of_fds();
	} else if (strcmp(name, "clients") == 0) {
		case_clients();
	} else if (strcmp(name, "request-count") == 0) {
		case_request_count();
	} else if (strcmp(name, "lone-batches") == 0) {
		case_lone_batches();
	} else {
		fprintf(stderr, "unknown case %s\n", name);
		return 2;
	}
	fprintf(stderr, "%s: ok\n", name);
	return 0;
}
