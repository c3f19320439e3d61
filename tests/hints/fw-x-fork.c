/*
 * An X client that leaves its pid behind: the process that connected to
 * the X server forks a child that keeps the connection, and exits. Xwayland
 * still reports the first pid for the child's windows (X-Resource records
 * the pid its socket's peer had at connect), and that pid is free for
 * another process to take.
 *
 *   fw-x-fork late COLOR   the window is made and mapped, then the fork
 *                          once a line "fork" comes on stdin
 *   fw-x-fork early COLOR  the fork first; the child makes its window
 *                          once a line "go" comes on stdin
 *
 * COLOR (RRGGBB) fills the window, so a test finds it on screen. Prints
 * "parent PID" and "child PID" on stdout, "mapped" once the window is, and
 * the child holds the connection until its stdin ends.
 */
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xcb/xcb.h>

static xcb_connection_t *conn;
static xcb_screen_t *screen;

/* One line on stdout, "WHAT" or "WHAT PID", at once. */
static void say(const char *what, pid_t pid) {
	if (pid > 0) {
		printf("%s %d\n", what, (int)pid);
	} else {
		printf("%s\n", what);
	}
	fflush(stdout);
}

/* Makes the window and waits until the window manager has mapped it. */
static void make_window(uint32_t color) {
	xcb_window_t window = xcb_generate_id(conn);
	uint32_t values[] = {color, XCB_EVENT_MASK_STRUCTURE_NOTIFY};
	xcb_create_window(conn, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0,
			300, 300, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
			XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
	xcb_map_window(conn, window);
	xcb_flush(conn);
	xcb_generic_event_t *event;
	while ((event = xcb_wait_for_event(conn)) != NULL) {
		bool mapped = (event->response_type & 0x7f) == XCB_MAP_NOTIFY;
		free(event);
		if (mapped) {
			say("mapped", 0);
			return;
		}
	}
	fprintf(stderr, "fw-x-fork: the X connection went away\n");
	exit(1);
}

/* Serves the connection until stdin ends (or the server goes). */
static void hold(void) {
	struct pollfd fds[] = {
			{.fd = 0, .events = POLLIN},
			{.fd = xcb_get_file_descriptor(conn), .events = POLLIN},
	};
	char buf[64];
	for (;;) {
		if (poll(fds, 2, -1) < 0) {
			continue;
		}
		if (fds[0].revents != 0 && read(0, buf, sizeof(buf)) <= 0) {
			return;
		}
		xcb_generic_event_t *event;
		while ((event = xcb_poll_for_event(conn)) != NULL) {
			free(event);
		}
		if (xcb_connection_has_error(conn)) {
			return;
		}
	}
}

/* Blocks until the line what comes on stdin (read unbuffered: the child
 * reads on from where the parent stopped). */
static void wait_for(const char *what) {
	char line[64];
	size_t len = 0;
	char c;
	while (read(0, &c, 1) == 1) {
		if (c != '\n') {
			if (len < sizeof(line) - 1) {
				line[len++] = c;
			}
			continue;
		}
		line[len] = '\0';
		if (strcmp(line, what) == 0) {
			return;
		}
		len = 0;
	}
	exit(1);
}

int main(int argc, char *argv[]) {
	if (argc != 3 ||
			(strcmp(argv[1], "late") != 0 && strcmp(argv[1], "early") != 0)) {
		fprintf(stderr, "usage: fw-x-fork late|early RRGGBB\n");
		return 2;
	}
	bool late = strcmp(argv[1], "late") == 0;
	uint32_t color = (uint32_t)strtoul(argv[2], NULL, 16);
	conn = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(conn)) {
		fprintf(stderr, "fw-x-fork: cannot connect to the X server\n");
		return 1;
	}
	screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
	/* A round trip: the server has taken the connection, and its pid. */
	free(xcb_get_input_focus_reply(conn, xcb_get_input_focus(conn), NULL));
	say("parent", getpid());
	if (late) {
		make_window(color);
		wait_for("fork");
	}
	pid_t child = fork();
	if (child < 0) {
		perror("fw-x-fork: fork");
		return 1;
	}
	if (child > 0) {
		/* The parent goes without a word to the server. */
		_exit(0);
	}
	say("child", getpid());
	if (!late) {
		wait_for("go");
		make_window(color);
	}
	hold();
	return 0;
}
