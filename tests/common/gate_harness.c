/* The gate in one process: the server, the raw client and the log. */
#include "tests/common/gate_harness.h"
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <wayland-client.h>

char socket_path[108];

/* --- what the server logged ------------------------------------------- */

static char server_log[1 << 16];
static size_t server_log_len;

__attribute__((format(printf, 1, 0))) static void log_append(
		const char *fmt, va_list args) {
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

__attribute__((format(printf, 2, 0))) void capture_sched_log(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	log_append(fmt, args);
}

__attribute__((format(printf, 1, 0))) void capture_wl_log(
		const char *fmt, va_list args) {
	log_append(fmt, args);
}

bool logged(const char *needle) {
	return strstr(server_log, needle) != NULL;
}

const char *server_log_text(void) {
	return server_log;
}

/* --- raw client side --------------------------------------------------- */

int raw_connect(void) {
	int fd = raw_wire_connect(socket_path);
	CHECK(fd >= 0);
	return fd;
}

bool raw_send(int fd, const void *data, size_t len, const int *fds, int nfds) {
	ssize_t n = raw_wire_send(fd, data, len, fds, nfds);
	if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) {
		return false;
	}
	CHECK(n == (ssize_t)len);
	return true;
}

bool raw_sync(int fd, uint32_t callback_id) {
	uint32_t msg[3];
	put_header(msg, 1, sizeof(msg), 0);
	msg[2] = callback_id;
	return raw_send(fd, msg, sizeof(msg), NULL, 0);
}

void raw_read(int fd, struct raw_events *events, uint32_t stop_at_done) {
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

void good_client(int roundtrips) {
	struct wl_display *display = wl_display_connect(socket_path);
	CHECK(display);
	for (int i = 0; i < roundtrips; i++) {
		CHECK(wl_display_roundtrip(display) >= 0);
	}
	wl_display_disconnect(display);
	_exit(0);
}

void good_body(const void *data) {
	good_client(*(const int *)data);
}

/* --- server side ------------------------------------------------------- */

static int handle_sigchld(int signal_number, void *data) {
	return 0;
}

#define TICK_MS 20

/*
 * The loops below check their conditions between turns, and a turn waits
 * when no client has work: after it has dropped the last client, say.
 * A tick ends every wait soon.
 */
static int handle_tick(void *data) {
	struct server *server = data;
	wl_event_source_timer_update(server->tick, TICK_MS);
	return 0;
}

pid_t spawn(void (*body)(const void *), const void *arg) {
	fflush(NULL);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		body(arg);
		_exit(0);
	}
	return pid;
}

void server_init(struct server *server) {
	struct gate_config config;
	gate_config_default(&config);
	server_init_with(server, &config);
}

/*
 * FAIRWAY_GATE_TRANSPORT=memory|socketpair runs the suite through that
 * transport (tests/gate/meson.build registers each test with both).
 */
static void set_transport(struct gate_config *config) {
	const char *name = getenv("FAIRWAY_GATE_TRANSPORT");
	if (name == NULL) {
		return;
	}
	if (strcmp(name, "memory") == 0) {
		config->transport = GATE_TRANSPORT_MEMORY;
	} else if (strcmp(name, "socketpair") == 0) {
		config->transport = GATE_TRANSPORT_SOCKETPAIR;
	} else {
		fprintf(stderr, "FAIRWAY_GATE_TRANSPORT=%s: memory or socketpair\n",
				name);
		_exit(1);
	}
}

void server_init_with(struct server *server, const struct gate_config *config) {
	int n = snprintf(server->dir, sizeof(server->dir), "/tmp/fairway-%s-XXXXXX",
			program_invocation_short_name);
	CHECK(n > 0 && (size_t)n < sizeof(server->dir));
	CHECK(mkdtemp(server->dir));
	setenv("XDG_RUNTIME_DIR", server->dir, 1);
	server->display = wl_display_create();
	CHECK(server->display);
	CHECK(wl_display_init_shm(server->display) == 0);
	struct gate_config with_transport = *config;
	set_transport(&with_transport);
	server->gate = gate_create(server->display, &with_transport);
	CHECK(server->gate);
	const char *transport = getenv("FAIRWAY_GATE_TRANSPORT");
	CHECK(!transport ||
			strcmp(gate_transport_name(server->gate), transport) == 0);
	CHECK(gate_listen(server->gate, NULL));
	n = snprintf(socket_path, sizeof(socket_path), "%s/%s", server->dir,
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
	server->tick = wl_event_loop_add_timer(
			wl_display_get_event_loop(server->display), handle_tick, server);
	CHECK(server->tick);
	wl_event_source_timer_update(server->tick, TICK_MS);
	server_log_len = 0;
	server_log[0] = '\0';
}

void server_finish(struct server *server) {
	/* wl_event_loop_destroy leaks sources still registered. */
	wl_event_source_remove(server->sigchld);
	wl_event_source_remove(server->tick);
	gate_destroy(server->gate);
	wl_display_destroy(server->display);
	rmdir(server->dir);
}

void serve_until_exit(
		struct server *server, pid_t *pids, int *status, int count) {
	size_t most = sizeof(server->exit_order) / sizeof(server->exit_order[0]);
	CHECK((size_t)count <= most);
	int left = count;
	time_t deadline = time(NULL) + 90;
	while (left > 0) {
		CHECK(time(NULL) < deadline);
		gate_iterate(server->gate);
		for (int i = 0; i < count; i++) {
			if (pids[i] > 0 &&
					waitpid(pids[i], &status[i], WNOHANG) == pids[i]) {
				pids[i] = -pids[i];
				server->exit_order[count - left] = i;
				left--;
			}
		}
	}
}

void serve_until_idle(struct server *server) {
	for (int i = 0; i < 1000 && !wl_list_empty(&server->gate->connections);
			i++) {
		gate_iterate(server->gate);
	}
	CHECK(wl_list_empty(&server->gate->connections));
}

void serve_beside_good(struct server *server, void (*body)(const void *),
		const void *arg, int roundtrips) {
	pid_t pids[2] = {
			spawn(body, arg),
			spawn(good_body, &roundtrips),
	};
	int status[2];
	serve_until_exit(server, pids, status, 2);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	CHECK(WIFEXITED(status[1]) && WEXITSTATUS(status[1]) == 0);
	serve_until_idle(server);
}

struct gate_connection *find_connection(struct server *server, pid_t pid) {
	struct gate_connection *conn;
	wl_list_for_each(conn, &server->gate->connections, link) {
		if (conn->pid == pid) {
			return conn;
		}
	}
	return NULL;
}

int count_fds(void) {
	int count = 0;
	DIR *dir = opendir("/proc/self/fd");
	CHECK(dir);
	while (readdir(dir)) {
		count++;
	}
	closedir(dir);
	return count;
}
