/* Resource caps: what a client may hold, and that it is all freed. */
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

/* --- resource caps -------------------------------------------------------- */

/* Sends syncs and never reads an event. */
void never_reads_body(const void *data) {
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

void case_never_reads(void) {
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
void many_objects_body(const void *data) {
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
			/* Closed: its error event may still wait unread. */
			raw_read(fd, &events, 0);
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
void absurd_pools_body(const void *data) {
	const char *mode = data;
	int fd = raw_connect();
	bind_shm(fd);
	int pool_fd = memfd_create("pool", MFD_CLOEXEC);
	CHECK(pool_fd >= 0 && ftruncate(pool_fd, 4096) == 0);
	struct raw_events events = {0};
	uint32_t id = 4;
	if (strcmp(mode, "many") == 0) {
		for (int round = 0; round < 100 && !events.error; round++) {
			bool open = true;
			for (int i = 0; i < 100 && open; i++) {
				uint32_t create_pool[4];
				put_header(create_pool, 3, sizeof(create_pool), 0);
				create_pool[2] = id++;
				create_pool[3] = INT32_MAX;
				open = raw_send(
						fd, create_pool, sizeof(create_pool), &pool_fd, 1);
			}
			if (!open || !raw_sync(fd, id)) {
				/* Closed: its error event may still wait unread. */
				raw_read(fd, &events, 0);
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

void run_resource_case(
		const char *name, void (*body)(const void *), const void *arg) {
	fprintf(stderr, "--- %s\n", name);
	struct server server;
	server_init(&server);
	struct footprint before;
	footprint_take(&before);
	serve_beside_good(&server, body, arg, 100);
	footprint_check(&before, 16 * 1024);
	server_finish(&server);
}

/* Connects and disconnects, in every way a client can. */
void churn_body(const void *data) {
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

void case_churn(void) {
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
