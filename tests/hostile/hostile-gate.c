/*
 * Hostile clients against the gate and a real libwayland display, in one
 * process, so that the server's fds, mappings and heap can be counted
 * exactly. Each case runs a hostile client that speaks the wire format by
 * hand next to a well-behaved libwayland client, and checks that only the
 * hostile one goes, for a reason that is logged, that the good one is
 * served throughout, and that nothing is left behind afterwards.
 */
#include "scheduler/connection.h"
#include "scheduler/gate.h"
#include "scheduler/log.h"
#include "tests/common/raw_wire.h"
#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server.h>

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
					#cond); \
			exit(1); \
		} \
	} while (0)

#define ANY_ERROR (-2)
#define NO_ERROR (-1)

static char socket_path[108];

/* --- what the server logged ------------------------------------------- */

static char server_log[1 << 16];
static size_t server_log_len;

static void log_append(const char *fmt, va_list args) {
	char line[1024];
	int n = vsnprintf(line, sizeof(line), fmt, args);
	if (n < 0) {
		return;
	}
	size_t len = strnlen(line, sizeof(line));
	fprintf(stderr, "server: %s%s", line,
			len > 0 && line[len - 1] == '\n' ? "" : "\n");
	/* Keep the newest lines: drop the oldest half when full. */
	if (server_log_len + len + 2 > sizeof(server_log)) {
		size_t half = sizeof(server_log) / 2;
		memmove(server_log, server_log + half, server_log_len - half);
		server_log_len -= half;
	}
	memcpy(server_log + server_log_len, line, len);
	server_log_len += len;
	server_log[server_log_len++] = '\n';
	server_log[server_log_len] = '\0';
}

__attribute__((format(printf, 2, 0))) static void capture_sched_log(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	log_append(fmt, args);
}

__attribute__((format(printf, 1, 0))) static void capture_wl_log(
		const char *fmt, va_list args) {
	log_append(fmt, args);
}

static bool logged(const char *needle) {
	return strstr(server_log, needle) != NULL;
}

/* --- measuring the server --------------------------------------------- */

static int count_dir(const char *path) {
	int count = 0;
	DIR *dir = opendir(path);
	CHECK(dir);
	while (readdir(dir)) {
		count++;
	}
	closedir(dir);
	return count;
}

static int count_fds(void) {
	return count_dir("/proc/self/fd");
}

static int count_maps(void) {
	FILE *f = fopen("/proc/self/maps", "r");
	CHECK(f);
	int count = 0, c;
	while ((c = fgetc(f)) != EOF) {
		count += c == '\n';
	}
	fclose(f);
	return count;
}

static long rss_kb(void) {
	FILE *f = fopen("/proc/self/status", "r");
	CHECK(f);
	char line[256];
	long kb = -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmRSS: %ld", &kb) == 1) {
			break;
		}
	}
	fclose(f);
	return kb;
}

/* Heap bytes in use (glibc's allocator; not meaningful under ASan). */
static size_t heap_in_use(void) {
	return mallinfo2().uordblks;
}

static double cpu_seconds(void) {
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
			(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* --- raw client side --------------------------------------------------- */

static int raw_connect(void) {
	int fd = raw_wire_connect(socket_path);
	CHECK(fd >= 0);
	return fd;
}

#define put_header raw_wire_header

/* False when the server has closed the connection. */
static bool raw_send(
		int fd, const void *data, size_t len, const int *fds, int nfds) {
	ssize_t n = raw_wire_send(fd, data, len, fds, nfds);
	if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
		return false;
	}
	CHECK(n == (ssize_t)len);
	return true;
}

static bool raw_sync(int fd, uint32_t callback_id) {
	uint32_t msg[3];
	put_header(msg, 1, sizeof(msg), 0);
	msg[2] = callback_id;
	return raw_send(fd, msg, sizeof(msg), NULL, 0);
}

struct raw_events {
	bool error;
	uint32_t error_code;
	char error_message[256];
	int done_count;
	uint32_t last_done;
	size_t bytes;
};

/*
 * Reads events until the server closes. With stop_at_done, returns as soon
 * as that callback is done instead.
 */
static void raw_read(int fd, struct raw_events *events, uint32_t stop_at_done) {
	static uint8_t buf[1 << 16];
	size_t len = 0;
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		CHECK(poll(&pfd, 1, 30000) == 1);
		ssize_t n = read(fd, buf + len, sizeof(buf) - len);
		if (n <= 0) {
			return;
		}
		len += n;
		events->bytes += n;
		size_t off = 0;
		while (len - off >= 8) {
			uint32_t words[5];
			memcpy(words, buf + off, 8);
			uint32_t size = words[1] >> 16, opcode = words[1] & 0xffff;
			CHECK(size >= 8);
			if (len - off < size) {
				break;
			}
			if (words[0] == 1 && opcode == 0 && size >= 20) {
				memcpy(words, buf + off, 20);
				events->error = true;
				events->error_code = words[3];
				size_t max = sizeof(events->error_message) - 1;
				size_t str = words[4] < max ? words[4] : max;
				if (str > size - 20) {
					str = size - 20;
				}
				memcpy(events->error_message, buf + off + 20, str);
				events->error_message[str] = '\0';
			} else if (words[0] != 1 && words[0] < 0xff000000 && opcode == 0 &&
					size == 12) {
				events->done_count++;
				events->last_done = words[0];
				if (words[0] == stop_at_done) {
					return;
				}
			}
			off += size;
		}
		memmove(buf, buf + off, len - off);
		len -= off;
	}
}

/* A well-behaved libwayland client: roundtrips, then exit 0. */
static void good_client(int roundtrips) {
	struct wl_display *display = wl_display_connect(socket_path);
	CHECK(display);
	for (int i = 0; i < roundtrips; i++) {
		CHECK(wl_display_roundtrip(display) >= 0);
	}
	wl_display_disconnect(display);
	_exit(0);
}

/* --- server side ------------------------------------------------------- */

struct server {
	struct wl_display *display;
	struct gate *gate;
	struct wl_event_source *sigchld;
	char dir[64];
};

static int handle_sigchld(int signal_number, void *data) {
	return 0;
}

static pid_t spawn(void (*body)(const void *), const void *arg) {
	fflush(NULL);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		body(arg);
		_exit(0);
	}
	return pid;
}

static void server_init(struct server *server) {
	snprintf(server->dir, sizeof(server->dir), "/tmp/fairway-hostile-XXXXXX");
	CHECK(mkdtemp(server->dir));
	setenv("XDG_RUNTIME_DIR", server->dir, 1);
	server->display = wl_display_create();
	CHECK(server->display);
	CHECK(wl_display_init_shm(server->display) == 0);
	struct gate_config config;
	gate_config_default(&config);
	server->gate = gate_create(server->display, &config);
	CHECK(server->gate);
	CHECK(gate_listen(server->gate, NULL));
	int n = snprintf(socket_path, sizeof(socket_path), "%s/%s", server->dir,
			gate_socket_name(server->gate));
	CHECK(n > 0 && (size_t)n < sizeof(socket_path));
	/* SIGCHLD wakes the loop, so that exits are noticed while idle. */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	server->sigchld =
			wl_event_loop_add_signal(wl_display_get_event_loop(server->display),
					SIGCHLD, handle_sigchld, server);
	CHECK(server->sigchld);
	server_log_len = 0;
	server_log[0] = '\0';
}

static void server_finish(struct server *server) {
	/* wl_event_loop_destroy leaks sources still registered. */
	wl_event_source_remove(server->sigchld);
	gate_destroy(server->gate);
	wl_display_destroy(server->display);
	rmdir(server->dir);
}

/* Serves until every child exited; fails after a minute. */
static void serve_until_exit(
		struct server *server, pid_t *pids, int *status, int count) {
	int left = count;
	time_t deadline = time(NULL) + 90;
	while (left > 0) {
		CHECK(time(NULL) < deadline);
		gate_iterate(server->gate);
		for (int i = 0; i < count; i++) {
			if (pids[i] > 0 &&
					waitpid(pids[i], &status[i], WNOHANG) == pids[i]) {
				pids[i] = -pids[i];
				left--;
			}
		}
	}
}

/* Lets the gate see the last hang-ups; every connection must be gone. */
static void serve_until_idle(struct server *server) {
	for (int i = 0; i < 1000 && !wl_list_empty(&server->gate->connections);
			i++) {
		gate_iterate(server->gate);
	}
	CHECK(wl_list_empty(&server->gate->connections));
}

static struct gate_connection *find_connection(
		struct server *server, pid_t pid) {
	struct gate_connection *conn;
	wl_list_for_each(conn, &server->gate->connections, link) {
		if (conn->pid == pid) {
			return conn;
		}
	}
	return NULL;
}

/* What a server looked like before a case, to compare with after it. */
struct footprint {
	int fds, maps;
	size_t heap;
	long rss_kb;
};

static void footprint_take(struct footprint *print) {
	print->fds = count_fds();
	print->maps = count_maps();
	print->heap = heap_in_use();
	print->rss_kb = rss_kb();
}

static void footprint_check(const struct footprint *before, long rss_slack_kb) {
	struct footprint after;
	footprint_take(&after);
	fprintf(stderr,
			"fds %d -> %d, mappings %d -> %d, heap %zu -> %zu bytes, "
			"rss %ld -> %ld kB\n",
			before->fds, after.fds, before->maps, after.maps, before->heap,
			after.heap, before->rss_kb, after.rss_kb);
	CHECK(after.fds == before->fds);
#ifdef __SANITIZE_ADDRESS__
	/*
	 * ASan's allocator maps memory of its own and holds freed blocks in
	 * quarantine (256 MiB): LeakSanitizer checks the heap at exit instead,
	 * and the plain build checks memory.
	 */
	(void)rss_slack_kb;
#else
	CHECK(after.maps <= before->maps);
	/* libwayland keeps freed client ids' slots, and stdio its buffers. */
	CHECK(after.heap <= before->heap + 64 * 1024);
	CHECK(after.rss_kb <= before->rss_kb + rss_slack_kb);
#endif
}

/* --- malformed input ---------------------------------------------------- */

struct hostile {
	const char *name;
	/* Sends the hostile part; false: the server closed on it already. */
	void (*send)(int fd, const struct hostile *hostile);
	uint32_t words[8];
	size_t len;
	int nfds;
	int expect_code; /* wl_display.error code, NO_ERROR or ANY_ERROR */
	const char *expect_message; /* in the error event, if one is expected */
	const char *expect_log; /* in the server's log */
	const char *expect_log_alt; /* or this instead */
	bool hang_up; /* close at once instead of reading until closed */
	bool survives; /* a case libwayland accepts: the client is served */
	/*
	 * The gate itself refuses the input. It drops the client at once, so
	 * requests that came in the same read as the bad one are not served,
	 * where libwayland would have answered them first.
	 */
	bool gate_refuses;
};

static void send_words(int fd, const struct hostile *hostile) {
	int fds[253];
	for (int i = 0; i < hostile->nfds; i++) {
		fds[i] = STDERR_FILENO;
	}
	raw_send(fd, hostile->words, hostile->len, fds, hostile->nfds);
}

/* More fds than libwayland's ring holds, one per sync. */
static void send_fd_per_sync(int fd, const struct hostile *hostile) {
	int out = STDERR_FILENO;
	for (uint32_t i = 0; i < 2000; i++) {
		uint32_t msg[3];
		put_header(msg, 1, sizeof(msg), 0);
		msg[2] = 3;
		if (!raw_send(fd, msg, sizeof(msg), &out, 1)) {
			return;
		}
	}
}

/* Zero-length sendmsgs, with and without fds, between real requests. */
static void send_empty(int fd, const struct hostile *hostile) {
	int out = STDERR_FILENO;
	for (int i = 0; i < 2000; i++) {
		raw_send(fd, "", 0, i % 2 ? &out : NULL, i % 2);
		if (i % 100 == 0) {
			raw_sync(fd, 3);
		}
	}
}

/* A request dribbled one byte per read. */
static void send_dribble(int fd, const struct hostile *hostile) {
	uint8_t stream[12 * 50];
	for (uint32_t i = 0; i < 50; i++) {
		uint32_t msg[3];
		put_header(msg, 1, sizeof(msg), 0);
		msg[2] = 3;
		memcpy(stream + 12 * i, msg, sizeof(msg));
	}
	for (size_t i = 0; i < sizeof(stream); i++) {
		raw_send(fd, stream + i, 1, NULL, 0);
		usleep(100);
	}
}

static void hostile_body(const void *data) {
	const struct hostile *hostile = data;
	int fd = raw_connect();
	/* A good request first: it must still be answered. */
	raw_sync(fd, 2);
	hostile->send(fd, hostile);
	if (hostile->hang_up) {
		close(fd);
		_exit(0);
	}
	struct raw_events events = {0};
	if (hostile->survives) {
		/* Still served after the odd input: a last sync comes back. */
		CHECK(raw_sync(fd, 4));
		raw_read(fd, &events, 4);
		CHECK(events.last_done == 4);
		CHECK(!events.error);
		shutdown(fd, SHUT_WR);
	}
	raw_read(fd, &events, 0);
	fprintf(stderr, "%s: error %d code %u \"%s\", %d callbacks\n",
			hostile->name, events.error, events.error_code,
			events.error_message, events.done_count);
	CHECK(events.done_count >= 1 || hostile->gate_refuses);
	if (hostile->expect_code == NO_ERROR) {
		CHECK(!events.error);
	} else if (hostile->expect_code != ANY_ERROR) {
		CHECK(events.error);
		CHECK(events.error_code == (uint32_t)hostile->expect_code);
	}
	if (hostile->expect_message) {
		CHECK(strstr(events.error_message, hostile->expect_message));
	}
	_exit(0);
}

static void good_body(const void *data) {
	good_client(*(const int *)data);
}

/* In client mode: the one case to run against a running compositor. */
static const char *client_only;

static void run_hostile(struct hostile *hostile) {
	if (client_only) {
		if (strcmp(hostile->name, client_only) == 0) {
			hostile_body(hostile);
		}
		return;
	}
	fprintf(stderr, "--- %s\n", hostile->name);
	struct server server;
	server_init(&server);
	struct footprint before;
	footprint_take(&before);
	int roundtrips = 50;
	pid_t pids[2] = {
			spawn(hostile_body, hostile),
			spawn(good_body, &roundtrips),
	};
	int status[2];
	serve_until_exit(&server, pids, status, 2);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	CHECK(WIFEXITED(status[1]) && WEXITSTATUS(status[1]) == 0);
	serve_until_idle(&server);
	if (hostile->expect_log) {
		bool found = logged(hostile->expect_log) ||
				(hostile->expect_log_alt && logged(hostile->expect_log_alt));
		if (!found) {
			fprintf(stderr, "no \"%s\" in the server's log\n",
					hostile->expect_log);
		}
		CHECK(found);
	}
	footprint_check(&before, 8 * 1024);
	server_finish(&server);
}

static struct hostile bad_size(uint32_t size) {
	static char names[32][32];
	static int next;
	char *name = names[next++ % 32];
	snprintf(name, 32, "size-%u", size);
	struct hostile hostile = {
			.name = name,
			.send = send_words,
			.len = 16,
			.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD,
			.expect_message = "invalid message size",
			.expect_log = "invalid message size",
			.gate_refuses = true,
	};
	put_header(hostile.words, 1, size, 0);
	return hostile;
}

static void case_malformed(void) {
	for (uint32_t size = 0; size < 12; size++) {
		if (size != 8) {
			struct hostile hostile = bad_size(size);
			run_hostile(&hostile);
		}
	}
	uint32_t sizes[] = {13, 14, 15, 4097, 4098, 4100, 65532, 65535};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct hostile hostile = bad_size(sizes[i]);
		run_hostile(&hostile);
	}

	struct hostile unknown_object = {
			.name = "unknown-object",
			.send = send_words,
			.len = 8,
			.expect_code = WL_DISPLAY_ERROR_INVALID_OBJECT,
			.expect_message = "invalid object 77",
			.expect_log = "invalid object 77",
	};
	put_header(unknown_object.words, 77, 8, 0);
	run_hostile(&unknown_object);

	struct hostile bad_opcode = {
			.name = "opcode-past-interface",
			.send = send_words,
			.len = 8,
			.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD,
			.expect_message = "invalid method 9",
			.expect_log = "invalid method 9",
	};
	put_header(bad_opcode.words, 1, 8, 9);
	run_hostile(&bad_opcode);

	/* wl_display.sync without its new_id: a size valid for the gate. */
	struct hostile short_args = {
			.name = "missing-arguments",
			.send = send_words,
			.len = 8,
			.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD,
			.expect_message = "invalid arguments",
			.expect_log = "invalid arguments",
	};
	put_header(short_args.words, 1, 8, 0);
	run_hostile(&short_args);

	/* A new_id that is not the next free one. */
	struct hostile bad_id = {
			.name = "bad-new-id",
			.send = send_words,
			.len = 12,
			.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD,
			.expect_message = "invalid arguments",
			.expect_log = "not a valid new object id",
	};
	put_header(bad_id.words, 1, 12, 0);
	bad_id.words[2] = 1000;
	run_hostile(&bad_id);

	struct hostile truncated = {
			.name = "truncated-then-hang-up",
			.send = send_words,
			.len = 10,
			.hang_up = true,
			.expect_log = "hung up",
	};
	put_header(truncated.words, 1, 12, 0);
	truncated.words[2] = 3;
	run_hostile(&truncated);

	struct hostile fds_hang_up = {
			.name = "hang-up-with-fds-in-flight",
			.send = send_words,
			.len = 6,
			.nfds = 3,
			.hang_up = true,
			.expect_log = "hung up",
	};
	put_header(fds_hang_up.words, 1, 12, 0);
	run_hostile(&fds_hang_up);

	struct hostile whole_fds_hang_up = {
			.name = "hang-up-after-a-request-with-fds",
			.send = send_words,
			.len = 12,
			.nfds = 3,
			.hang_up = true,
			.expect_log = "hung up",
	};
	put_header(whole_fds_hang_up.words, 1, 12, 0);
	whole_fds_hang_up.words[2] = 3;
	run_hostile(&whole_fds_hang_up);

	/* Like libwayland, fds on a request that takes none are kept unused. */
	struct hostile stray_fds = {
			.name = "fds-on-a-request-that-takes-none",
			.send = send_words,
			.len = 12,
			.nfds = 5,
			.survives = true,
			.expect_code = NO_ERROR,
	};
	put_header(stray_fds.words, 1, 12, 0);
	stray_fds.words[2] = 3;
	run_hostile(&stray_fds);

	struct hostile fds_28 = stray_fds;
	fds_28.name = "28-fds-on-one-request";
	fds_28.nfds = 28;
	run_hostile(&fds_28);

	struct hostile fds_253 = stray_fds;
	fds_253.name = "253-fds-on-one-request";
	fds_253.nfds = 253;
	fds_253.survives = false;
	fds_253.expect_code = WL_DISPLAY_ERROR_INVALID_METHOD;
	fds_253.expect_message = "fds in one message";
	fds_253.expect_log = "fds in one message";
	fds_253.gate_refuses = true;
	run_hostile(&fds_253);

	struct hostile fd_per_sync = {
			.name = "more-fds-than-libwayland-holds",
			.send = send_fd_per_sync,
			.expect_code = ANY_ERROR,
			/* The gate's cap on queued fds, or libwayland's full fd ring. */
			.expect_log = "disconnect",
			.expect_log_alt = "failed to read client connection",
			.gate_refuses = true,
	};
	run_hostile(&fd_per_sync);
}

/* --- scheduler faults --------------------------------------------------- */

static void case_zero_reads(void) {
	struct hostile empty = {
			.name = "zero-length-sends",
			.send = send_empty,
			.survives = true,
			.expect_code = NO_ERROR,
	};
	run_hostile(&empty);
	struct hostile dribble = {
			.name = "one-byte-reads",
			.send = send_dribble,
			.survives = true,
			.expect_code = NO_ERROR,
	};
	run_hostile(&dribble);
}

/*
 * A client that shut down its writing side reads as end of file forever:
 * the gate must stop polling it, not spin on it, and still answer it.
 */
static void half_close_body(const void *data) {
	int fd = raw_connect();
	for (uint32_t i = 0; i < 100; i++) {
		raw_sync(fd, 2 + i);
	}
	shutdown(fd, SHUT_WR);
	struct raw_events events = {0};
	raw_read(fd, &events, 0);
	CHECK(!events.error);
	CHECK(events.done_count == 100);
	_exit(0);
}

/* Stays connected, idle, until its stdin (a pipe) closes. */
static void idle_body(const void *data) {
	const int *pipe_fds = data;
	close(pipe_fds[1]);
	int fd = raw_connect();
	raw_sync(fd, 2);
	char byte;
	while (read(pipe_fds[0], &byte, 1) < 0 && errno == EINTR) {
	}
	_exit(0);
}

static void case_half_close(void) {
	fprintf(stderr, "--- half-close\n");
	struct server server;
	server_init(&server);
	struct footprint before;
	footprint_take(&before);
	int pipe_fds[2];
	CHECK(pipe(pipe_fds) == 0);
	pid_t pids[2] = {
			spawn(half_close_body, NULL),
			spawn(idle_body, pipe_fds),
	};
	close(pipe_fds[0]);
	int status[2];
	serve_until_exit(&server, pids, status, 1);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	/* Only the idle client is left: the loop must sleep, not spin. */
	for (int i = 0; i < 100 && find_connection(&server, -pids[0]); i++) {
		gate_iterate(server.gate);
	}
	CHECK(!find_connection(&server, -pids[0]));
	struct wl_event_loop *loop = wl_display_get_event_loop(server.display);
	double cpu = cpu_seconds();
	int turns = 0;
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		/* Like gate_iterate, but bounded, so the idle wait ends. */
		wl_display_flush_clients(server.display);
		wl_event_loop_dispatch(loop, 100);
		turns++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < 1);
	cpu = cpu_seconds() - cpu;
	fprintf(stderr, "idle second: %d loop turns, %.3f s of CPU\n", turns, cpu);
	CHECK(turns < 1000);
	close(pipe_fds[1]);
	serve_until_exit(&server, pids + 1, status + 1, 1);
	serve_until_idle(&server);
	footprint_check(&before, 8 * 1024);
	server_finish(&server);
}

/*
 * Floods with fresh callback ids, so that every sync is valid, reading
 * whatever answers are there without waiting for them.
 */
static void flood_fresh_body(const void *data) {
	int fd = raw_connect();
	uint32_t batch[3 * 512];
	static uint8_t sink[1 << 16];
	uint32_t next_id = 2;
	for (;;) {
		for (int i = 0; i < 512; i++) {
			put_header(batch + 3 * i, 1, 12, 0);
			batch[3 * i + 2] = next_id++;
		}
		if (!raw_send(fd, batch, sizeof(batch), NULL, 0)) {
			_exit(1);
		}
		while (recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0) {
		}
	}
}

static void case_dies_mid_batch(void) {
	for (int round = 0; round < 5; round++) {
		fprintf(stderr, "--- dies-mid-batch %d\n", round);
		struct server server;
		server_init(&server);
		struct footprint before;
		footprint_take(&before);
		int roundtrips = 100;
		pid_t pids[3] = {
				spawn(flood_fresh_body, NULL),
				spawn(flood_fresh_body, NULL),
				spawn(good_body, &roundtrips),
		};
		/*
		 * Kill the first flooder mid-flood, with requests queued: a batch
		 * that fits one libwayland read is served within the turn that
		 * forwards it, so "in flight" is seen only for larger ones.
		 */
		bool killed = false;
		time_t deadline = time(NULL) + 30;
		while (!killed) {
			CHECK(time(NULL) < deadline);
			gate_iterate(server.gate);
			struct gate_connection *conn = find_connection(&server, pids[0]);
			if (conn && conn->validated > 0 &&
					conn->stats.batches > (uint64_t)round * 5) {
				kill(pids[0], SIGKILL);
				killed = true;
			}
		}
		/* The second flooder dies too, between turns, some rounds later. */
		for (int i = 0; i < 10 * round; i++) {
			gate_iterate(server.gate);
		}
		kill(pids[1], SIGKILL);
		int status[3];
		serve_until_exit(&server, pids, status, 3);
		CHECK(WIFSIGNALED(status[0]) && WTERMSIG(status[0]) == SIGKILL);
		CHECK(WIFSIGNALED(status[1]) && WTERMSIG(status[1]) == SIGKILL);
		CHECK(WIFEXITED(status[2]) && WEXITSTATUS(status[2]) == 0);
		serve_until_idle(&server);
		CHECK(server.gate->ready_count == 0);
		CHECK(wl_list_empty(&server.gate->in_flight));
		footprint_check(&before, 16 * 1024);
		server_finish(&server);
	}
}

/* --- resource caps -------------------------------------------------------- */

/* Sends syncs and never reads an event. */
static void never_reads_body(const void *data) {
	int fd = raw_connect();
	uint32_t batch[3 * 256];
	uint32_t id = 2;
	for (;;) {
		for (int i = 0; i < 256; i++) {
			put_header(batch + 3 * i, 1, 12, 0);
			batch[3 * i + 2] = id++;
		}
		if (!raw_send(fd, batch, sizeof(batch), NULL, 0)) {
			_exit(0);
		}
	}
}

static void case_never_reads(void) {
	fprintf(stderr, "--- never-reads\n");
	struct server server;
	server_init(&server);
	struct footprint before;
	footprint_take(&before);
	int roundtrips = 100;
	pid_t pids[2] = {
			spawn(never_reads_body, NULL),
			spawn(good_body, &roundtrips),
	};
	int status[2];
	long peak_kb = 0;
	int left = 2;
	time_t deadline = time(NULL) + 60;
	while (left > 0) {
		CHECK(time(NULL) < deadline);
		gate_iterate(server.gate);
		long kb = rss_kb();
		peak_kb = kb > peak_kb ? kb : peak_kb;
		for (int i = 0; i < 2; i++) {
			if (pids[i] > 0 &&
					waitpid(pids[i], &status[i], WNOHANG) == pids[i]) {
				pids[i] = -pids[i];
				left--;
			}
		}
	}
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	CHECK(WIFEXITED(status[1]) && WEXITSTATUS(status[1]) == 0);
	serve_until_idle(&server);
	CHECK(logged("does not read its events"));
	/* The cap is 1 MiB of events: memory stays within a few of it. */
	fprintf(stderr, "peak rss %ld kB (from %ld kB)\n", peak_kb, before.rss_kb);
#ifndef __SANITIZE_ADDRESS__
	CHECK(peak_kb < before.rss_kb + 32 * 1024);
#endif
	footprint_check(&before, 16 * 1024);
	server_finish(&server);
}

/* Binds the wl_shm global as id 3 via a registry at id 2. */
static void bind_shm(int fd) {
	uint32_t get_registry[3];
	put_header(get_registry, 1, 12, 1);
	get_registry[2] = 2;
	CHECK(raw_send(fd, get_registry, sizeof(get_registry), NULL, 0));
	/* With only wl_shm as a global, its name is 1 in a fresh display. */
	uint32_t bind[8];
	put_header(bind, 2, sizeof(bind), 0);
	bind[2] = 1;
	bind[3] = 7;
	memcpy(&bind[4], "wl_shm\0\0", 8);
	bind[6] = 1;
	bind[7] = 3;
	CHECK(raw_send(fd, bind, sizeof(bind), NULL, 0));
}

/*
 * Registries without end: the first 10 000 objects are served, then the
 * client gets a protocol error (the gate's object cap), not the server an
 * OOM.
 */
static void many_objects_body(const void *data) {
	int fd = raw_connect();
	uint32_t id = 2;
	struct raw_events events = {0};
	for (int round = 0; round < 200 && !events.error; round++) {
		uint32_t batch[3 * 100];
		for (int i = 0; i < 100; i++) {
			put_header(batch + 3 * i, 1, 12, 1);
			batch[3 * i + 2] = id++;
		}
		if (!raw_send(fd, batch, sizeof(batch), NULL, 0) || !raw_sync(fd, id)) {
			break;
		}
		raw_read(fd, &events, id);
		id++;
	}
	fprintf(stderr, "many-objects: %u ids used, error %d \"%s\"\n", id,
			events.error, events.error_message);
	CHECK(events.error);
	CHECK(events.error_code == WL_DISPLAY_ERROR_NO_MEMORY);
	CHECK(strstr(events.error_message, "too many objects"));
	CHECK(id > 10000);
	_exit(0);
}

/*
 * Pools of absurd sizes: far past their file, 2 GiB each, 10 000 of them;
 * and sizes libwayland must refuse. The server maps address space, not
 * memory, and every mapping goes with the client.
 */
static void absurd_pools_body(const void *data) {
	const char *mode = data;
	int fd = raw_connect();
	bind_shm(fd);
	int pool_fd = memfd_create("pool", MFD_CLOEXEC);
	CHECK(pool_fd >= 0 && ftruncate(pool_fd, 4096) == 0);
	struct raw_events events = {0};
	uint32_t id = 4;
	if (strcmp(mode, "many") == 0) {
		for (int round = 0; round < 100 && !events.error; round++) {
			for (int i = 0; i < 100; i++) {
				uint32_t create_pool[4];
				put_header(create_pool, 3, sizeof(create_pool), 0);
				create_pool[2] = id++;
				create_pool[3] = INT32_MAX;
				if (!raw_send(fd, create_pool, sizeof(create_pool), &pool_fd,
							1)) {
					break;
				}
			}
			if (!raw_sync(fd, id)) {
				break;
			}
			raw_read(fd, &events, id);
			id++;
		}
		fprintf(stderr, "absurd pools: %u ids, error %d \"%s\"\n", id,
				events.error, events.error_message);
		/*
		 * Either served, or refused with a protocol error: when mmap fails,
		 * or at the gate's object cap.
		 */
		if (events.error) {
			CHECK(strstr(events.error_message, "mmap") ||
					strstr(events.error_message, "too many objects"));
		} else {
			CHECK(events.last_done == id - 1);
		}
		_exit(0);
	}
	uint32_t create_pool[4];
	put_header(create_pool, 3, sizeof(create_pool), 0);
	create_pool[2] = id;
	create_pool[3] = strcmp(mode, "negative") == 0 ? (uint32_t)-4096 : 4096;
	CHECK(raw_send(fd, create_pool, sizeof(create_pool), &pool_fd, 1));
	uint32_t expect_code = WL_SHM_ERROR_INVALID_STRIDE;
	if (strcmp(mode, "resize") == 0) {
		/* Growing to 2 GiB past the file is allowed; shrinking is not. */
		uint32_t resize[3];
		put_header(resize, id, sizeof(resize), 2);
		resize[2] = INT32_MAX;
		CHECK(raw_send(fd, resize, sizeof(resize), NULL, 0));
		CHECK(raw_sync(fd, id + 1));
		raw_read(fd, &events, id + 1);
		CHECK(!events.error);
		resize[2] = 4096;
		CHECK(raw_send(fd, resize, sizeof(resize), NULL, 0));
		expect_code = WL_SHM_ERROR_INVALID_FD;
	} else if (strcmp(mode, "buffer") == 0) {
		/* wl_shm_pool.create_buffer: id, offset, width, height, stride, fmt */
		uint32_t create_buffer[8];
		put_header(create_buffer, id, sizeof(create_buffer), 0);
		create_buffer[2] = id + 1;
		create_buffer[3] = 0;
		create_buffer[4] = 65536;
		create_buffer[5] = 65536;
		create_buffer[6] = 4 * 65536;
		create_buffer[7] = 0;
		CHECK(raw_send(fd, create_buffer, sizeof(create_buffer), NULL, 0));
	}
	raw_read(fd, &events, 0);
	fprintf(stderr, "pool %s: error %d code %u \"%s\"\n", mode, events.error,
			events.error_code, events.error_message);
	CHECK(events.error);
	CHECK(events.error_code == expect_code);
	_exit(0);
}

static void run_resource_case(
		const char *name, void (*body)(const void *), const void *arg) {
	fprintf(stderr, "--- %s\n", name);
	struct server server;
	server_init(&server);
	struct footprint before;
	footprint_take(&before);
	int roundtrips = 100;
	pid_t pids[2] = {
			spawn(body, arg),
			spawn(good_body, &roundtrips),
	};
	int status[2];
	serve_until_exit(&server, pids, status, 2);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	CHECK(WIFEXITED(status[1]) && WEXITSTATUS(status[1]) == 0);
	serve_until_idle(&server);
	footprint_check(&before, 16 * 1024);
	server_finish(&server);
}

/* Connects and disconnects, in every way a client can. */
static void churn_body(const void *data) {
	int count = *(const int *)data;
	int out = STDERR_FILENO;
	for (int i = 0; i < count; i++) {
		int fd = raw_connect();
		switch (i % 4) {
		case 0: /* a roundtrip, then close */
			CHECK(raw_sync(fd, 2));
			struct raw_events events = {0};
			raw_read(fd, &events, 2);
			CHECK(events.last_done == 2);
			break;
		case 1: /* close at once */
			break;
		case 2: /* a request with an fd, gone before any answer */
			CHECK(raw_sync(fd, 2));
			raw_send(fd, "\1\0\0\0", 4, &out, 1);
			break;
		case 3: /* a protocol error */
			raw_send(fd, "\1\0\0\0\0\0\3\0", 8, NULL, 0);
			break;
		}
		close(fd);
	}
	_exit(0);
}

static void case_churn(void) {
	fprintf(stderr, "--- churn\n");
	struct server server;
	server_init(&server);
	/* A first client, so libwayland's one-time allocations are made. */
	int warmup = 4;
	pid_t warm = spawn(churn_body, &warmup);
	int status[4];
	serve_until_exit(&server, &warm, status, 1);
	serve_until_idle(&server);
	struct footprint before;
	footprint_take(&before);
	int each = 250;
	pid_t pids[4];
	for (int i = 0; i < 4; i++) {
		pids[i] = spawn(churn_body, &each);
	}
	serve_until_exit(&server, pids, status, 4);
	for (int i = 0; i < 4; i++) {
		CHECK(WIFEXITED(status[i]) && WEXITSTATUS(status[i]) == 0);
	}
	serve_until_idle(&server);
	fprintf(stderr, "1000 clients came and went\n");
	footprint_check(&before, 4 * 1024);
	server_finish(&server);
}

/*
 * One hostile client against the compositor at $WAYLAND_DISPLAY, for the
 * tests that check fairway's screen and fds around it. Exits 0 when the
 * compositor treated it as expected.
 */
static int run_client(const char *name) {
	const char *dir = getenv("XDG_RUNTIME_DIR");
	const char *display = getenv("WAYLAND_DISPLAY");
	if (!dir || !display) {
		fprintf(stderr, "client mode needs XDG_RUNTIME_DIR, WAYLAND_DISPLAY\n");
		return 2;
	}
	int n = snprintf(socket_path, sizeof(socket_path), "%s/%s", dir, display);
	CHECK(n > 0 && (size_t)n < sizeof(socket_path));
	if (strcmp(name, "never-reads") == 0) {
		never_reads_body(NULL);
	} else if (strcmp(name, "churn") == 0) {
		int count = 200;
		churn_body(&count);
	} else if (strcmp(name, "dies-mid-batch") == 0) {
		flood_fresh_body(NULL);
	}
	client_only = name;
	case_malformed();
	fprintf(stderr, "unknown client case %s\n", name);
	return 2;
}

int main(int argc, char *argv[]) {
	signal(SIGPIPE, SIG_IGN);
	sched_log_init(capture_sched_log);
	wl_log_set_handler_server(capture_wl_log);
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: hostile-gate CASE | client CASE\n");
		return 2;
	}
	const char *name = argv[1];
	if (strcmp(name, "client") == 0 && argc == 3) {
		return run_client(argv[2]);
	}
	if (strcmp(name, "malformed") == 0) {
		case_malformed();
	} else if (strcmp(name, "zero-reads") == 0) {
		case_zero_reads();
		case_half_close();
	} else if (strcmp(name, "dies-mid-batch") == 0) {
		case_dies_mid_batch();
	} else if (strcmp(name, "never-reads") == 0) {
		case_never_reads();
	} else if (strcmp(name, "many-objects") == 0) {
		run_resource_case("many-objects", many_objects_body, NULL);
	} else if (strcmp(name, "absurd-pools") == 0) {
		const char *modes[] = {"negative", "resize", "buffer", "many"};
		for (int i = 0; i < 4; i++) {
			run_resource_case(modes[i], absurd_pools_body, modes[i]);
		}
	} else if (strcmp(name, "churn") == 0) {
		case_churn();
	} else {
		fprintf(stderr, "unknown case %s\n", name);
		return 2;
	}
	fprintf(stderr, "%s: ok\n", name);
	return 0;
}
