#ifndef FAIRWAY_TESTS_COMMON_GATE_HARNESS_H
#define FAIRWAY_TESTS_COMMON_GATE_HARNESS_H

/*
 * The gate end to end, in one process, for the gate and hostile tests: a
 * real libwayland display behind the gate, clients forked from this
 * process that speak the wire format by hand or through libwayland, and
 * what the server logged.
 *
 * Forked clients leave with _exit: the server's heap they inherited is not
 * theirs to free, and LeakSanitizer would report it.
 */

#include "scheduler/gate/gate_internal.h"
#include "scheduler/log.h"
#include "tests/common/raw_wire.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>
#include <wayland-server.h>

/*
 * A failed check leaves with _exit too, in a forked client or the server
 * alike: nothing is freed on the way out, and a leak report would bury
 * the line that says what failed.
 */
#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
					#cond); \
			_exit(1); \
		} \
	} while (0)

#define put_header raw_wire_header

/* The server's socket, for the clients to connect to. */
extern char socket_path[108];

/* --- what the server logged --------------------------------------------- */

/* Log handlers for sched_log_init and wl_log_set_handler_server. */
__attribute__((format(printf, 2, 0))) void capture_sched_log(
		enum sched_log_importance importance, const char *fmt, va_list args);
__attribute__((format(printf, 1, 0))) void capture_wl_log(
		const char *fmt, va_list args);
/* Whether the captured log since server_init holds needle. */
bool logged(const char *needle);
/* The captured log, one line per record. */
const char *server_log_text(void);

/* --- raw client side ---------------------------------------------------- */

struct raw_events {
	bool error;
	uint32_t error_code;
	char error_message[256];
	int done_count;
	uint32_t last_done;
	size_t bytes;
};

/* Connects to socket_path; fails the check if it cannot. */
int raw_connect(void);
/* False when the server has closed the connection. */
bool raw_send(int fd, const void *data, size_t len, const int *fds, int nfds);
bool raw_sync(int fd, uint32_t callback_id);
/*
 * Reads events into events (zeroed by the caller; it adds up) until the
 * server closes. With stop_at_done, returns as soon as that callback is
 * done instead; 0 reads until the close.
 */
void raw_read(int fd, struct raw_events *events, uint32_t stop_at_done);

/* A well-behaved libwayland client: roundtrips, then _exit(0). */
void good_client(int roundtrips);
/* good_client for spawn: data points to the int number of roundtrips. */
void good_body(const void *data);

/* --- server side -------------------------------------------------------- */

struct server {
	struct wl_display *display;
	struct gate *gate;
	struct wl_event_source *sigchld, *tick;
	char dir[64];
	/* Indexes into serve_until_exit's pids, in the order they exited. */
	int exit_order[8];
};

/* Forks a client that runs body(arg), then leaves with _exit(0). */
pid_t spawn(void (*body)(const void *), const void *arg);
/* A fresh display and gate listening in a private XDG_RUNTIME_DIR. */
void server_init(struct server *server);
/* The same, with a gate configured otherwise than by default. */
void server_init_with(struct server *server, const struct gate_config *config);
void server_finish(struct server *server);
/*
 * Serves until every pid in the list has exited, negating each pid as it
 * goes; returns their statuses and fills exit_order. Fails after 90 s.
 */
void serve_until_exit(
		struct server *server, pid_t *pids, int *status, int count);
/* Lets the gate see the last hang-ups; every connection must be gone. */
void serve_until_idle(struct server *server);
/*
 * Runs body(arg) in one client beside a good_client of roundtrips: serves
 * until both have exited 0, then until every connection is gone.
 */
void serve_beside_good(struct server *server, void (*body)(const void *),
		const void *arg, int roundtrips);
struct gate_connection *find_connection(struct server *server, pid_t pid);
/* Open fds in this process. */
int count_fds(void);

#endif
