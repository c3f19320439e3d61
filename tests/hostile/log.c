/* What clients can put in the server's log. */
#include "tests/common/raw_wire.h"
#include "tests/hostile/hostile.h"
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define EVIL "evil\n[ERROR] forged line \x1b[2J\x7f"

/*
 * Binds a global that does not exist under an interface name of its own
 * making, which libwayland quotes in the protocol error; `count` times.
 */
static void evil_bind_body(const void *data) {
	int count = *(const int *)data;
	for (int i = 0; i < count; i++) {
		if (i == count - 1) {
			/* The last one after a pause: it says how many went unlogged. */
			usleep(300 * 1000);
		}
		int fd = raw_connect();
		uint32_t get_registry[3];
		put_header(get_registry, 1, sizeof(get_registry), 1);
		get_registry[2] = 2;
		CHECK(raw_send(fd, get_registry, sizeof(get_registry), NULL, 0));
		/* wl_registry.bind(name 999, interface, version 1, new id 3) */
		uint32_t bind[4 + 12 + 2];
		size_t len = strlen(EVIL) + 1;
		size_t words = (len + 3) / 4;
		memset(bind, 0, sizeof(bind));
		put_header(bind, 2, (uint32_t)((4 + words + 2) * 4), 0);
		bind[2] = 999;
		bind[3] = (uint32_t)len;
		memcpy(&bind[4], EVIL, len);
		bind[4 + words] = 1;
		bind[4 + words + 1] = 3;
		CHECK(raw_send(fd, bind, (4 + words + 2) * 4, NULL, 0));
		struct raw_events events = {0};
		raw_read(fd, &events, 0);
		CHECK(events.error);
		close(fd);
	}
	_exit(0);
}

static size_t count_in_log(const char *needle) {
	size_t n = 0;
	for (const char *p = server_log_text(); (p = strstr(p, needle)) != NULL;
			p++) {
		n++;
	}
	return n;
}

/*
 * A client's string in a protocol error reaches the log escaped (no
 * forged line, no terminal escape), and 300 of them in a burst take the
 * logger's burst of 50 lines and a few more, not 300.
 */
void case_log_strings(void) {
	fprintf(stderr, "--- log-strings\n");
	struct server server;
	server_init(&server);
	int count = 301;
	pid_t pids[1] = {spawn(evil_bind_body, &count)};
	int status[1];
	serve_until_exit(&server, pids, status, 1);
	CHECK(WIFEXITED(status[0]) && WEXITSTATUS(status[0]) == 0);
	serve_until_idle(&server);
	CHECK(logged("invalid global evil\\x0a[ERROR] forged line \\x1b[2J\\x7f"));
	CHECK(!logged("\n[ERROR] forged line"));
	CHECK(!logged("\x1b"));
	size_t lines = count_in_log("protocol error");
	fprintf(stderr, "%d errors, %zu log lines\n", count, lines);
	CHECK(lines >= 50 && lines < 100);
	CHECK(logged("more not logged before it"));
	server_finish(&server);
}
