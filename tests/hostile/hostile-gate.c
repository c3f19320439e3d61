/*
 * Hostile clients against the gate and a real libwayland display, in one
 * process, so that the server's fds, mappings and heap can be counted
 * exactly. Each case runs a hostile client that speaks the wire format by
 * hand next to a well-behaved libwayland client, and checks that only the
 * hostile one goes, for a reason that is logged, that the good one is
 * served throughout, and that nothing is left behind afterwards.
 */
#include "scheduler/gate/connection.h"
#include "tests/common/raw_wire.h"
#include "tests/hostile/hostile.h"
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
	} else if (strcmp(name, "accept-burst") == 0) {
		case_accept_burst();
	} else if (strcmp(name, "max-clients") == 0) {
		case_max_clients();
	} else if (strcmp(name, "total-queued") == 0) {
		case_total_queued();
	} else if (strcmp(name, "log-strings") == 0) {
		case_log_strings();
	} else {
		fprintf(stderr, "unknown case %s\n", name);
		return 2;
	}
	fprintf(stderr, "%s: ok\n", name);
	return 0;
}
