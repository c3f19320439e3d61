#ifndef FAIRWAY_TESTS_HOSTILE_HOSTILE_H
#define FAIRWAY_TESTS_HOSTILE_HOSTILE_H

/*
 * What the hostile-client cases share: the server they attack (the gate
 * and a real libwayland display, in this process), the raw wire client,
 * and the measures of what the server was left holding.
 */

#include "scheduler/gate.h"
#include "scheduler/log.h"
#include "tests/common/raw_wire.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <wayland-server.h>

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
					#cond); \
			exit(1); \
		} \
	} while (0)

#define put_header raw_wire_header

#define ANY_ERROR (-2)
#define NO_ERROR (-1)

extern char socket_path[108];
/* Set by `hostile-gate client CASE`: run only that malformed case. */
extern const char *client_only;

struct raw_events {
	bool error;
	uint32_t error_code;
	char error_message[256];
	int done_count;
	uint32_t last_done;
	size_t bytes;
};

struct server {
	struct wl_display *display;
	struct gate *gate;
	struct wl_event_source *sigchld;
	char dir[64];
};

/* What a server looked like before a case, to compare with after it. */
struct footprint {
	int fds, maps;
	size_t heap;
	long rss_kb;
};

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
	 * libwayland drops the client before it answers the requests that
	 * came before the fault (its fd ring overflowed). Where the gate
	 * refuses the input, it serves those requests first, as libwayland
	 * does for the faults it catches itself.
	 */
	bool drops_unanswered;
};

__attribute__((format(printf, 2, 0))) void capture_sched_log(
		enum sched_log_importance importance, const char *fmt, va_list args);
__attribute__((format(printf, 1, 0))) void capture_wl_log(
		const char *fmt, va_list args);
bool logged(const char *needle);
int count_fds(void);
int count_maps(void);
long rss_kb(void);
size_t heap_in_use(void);
double cpu_seconds(void);
int raw_connect(void);
bool raw_send(int fd, const void *data, size_t len, const int *fds, int nfds);
bool raw_sync(int fd, uint32_t callback_id);
void raw_read(int fd, struct raw_events *events, uint32_t stop_at_done);
void good_client(int roundtrips);
pid_t spawn(void (*body)(const void *), const void *arg);
void server_init(struct server *server);
void server_finish(struct server *server);
void serve_until_exit(
		struct server *server, pid_t *pids, int *status, int count);
void serve_until_idle(struct server *server);
struct gate_connection *find_connection(struct server *server, pid_t pid);
void footprint_take(struct footprint *print);
void footprint_check(const struct footprint *before, long rss_slack_kb);
void good_body(const void *data);
void case_malformed(void);
void case_zero_reads(void);
void case_half_close(void);
void flood_fresh_body(const void *data);
void case_dies_mid_batch(void);
void never_reads_body(const void *data);
void case_never_reads(void);
void many_objects_body(const void *data);
void absurd_pools_body(const void *data);
void run_resource_case(
		const char *name, void (*body)(const void *), const void *arg);
void churn_body(const void *data);
void case_churn(void);

void send_empty(int fd, const struct hostile *hostile);
void send_dribble(int fd, const struct hostile *hostile);
void run_hostile(struct hostile *hostile);

#endif
