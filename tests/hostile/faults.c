/* Scheduler faults: clients that stop, dribble or die mid-batch. */
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

/* --- scheduler faults --------------------------------------------------- */

void case_zero_reads(void) {
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

void case_half_close(void) {
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
void flood_fresh_body(const void *data) {
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

void case_dies_mid_batch(void) {
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
		 * is served within the turn that forwards it, so a death always
		 * falls between batches, with the queue holding the rest.
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
		CHECK(wl_list_empty(&server.gate->policy.ready));
		CHECK(server.gate->batch.conn == NULL);
		footprint_check(&before, 16 * 1024);
		server_finish(&server);
	}
}
