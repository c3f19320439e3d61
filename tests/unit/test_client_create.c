#include "compositor/sched/client_create.h"
#include "scheduler/gate/gate.h"
#include "tests/unit/check.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-server-core.h>

/*
 * wlroots makes Xwayland's client with wl_client_create(display, fd) and,
 * when that fails, closes fd itself. fairway's wl_client_create gives the
 * fd to the gate: whatever the gate does on failure, fd must still be
 * open, and the same socket, for wlroots to close; on success it is the
 * gate's, and closed here.
 */

static struct wl_client *failing_create(struct wl_display *display, int fd) {
	return NULL;
}

static ino_t inode_of(int fd) {
	struct stat st;
	return fstat(fd, &st) == 0 ? st.st_ino : 0;
}

/* A gate that creates its clients with create, and adopts XWayland's. */
static struct gate *adopting_gate(struct wl_display *display,
		struct wl_client *(*create)(struct wl_display *, int)) {
	struct gate_config config;
	gate_config_default(&config);
	config.create_client = create;
	struct gate *gate = gate_create(display, &config);
	CHECK(gate != NULL);
	fw_client_create_set_gate(gate);
	return gate;
}

static void test_failure_leaves_fd(void) {
	struct wl_display *display = wl_display_create();
	CHECK(display != NULL);
	struct gate *gate = adopting_gate(display, failing_create);
	int pair[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
	ino_t inode = inode_of(pair[0]);
	CHECK(wl_client_create(display, pair[0]) == NULL);
	/* Still open, still the same socket: wlroots' to close, once. */
	CHECK(fcntl(pair[0], F_GETFD) >= 0);
	CHECK(inode_of(pair[0]) == inode);
	CHECK_INT(close(pair[0]), 0);
	close(pair[1]);
	fw_client_create_set_gate(NULL);
	gate_destroy(gate);
	wl_display_destroy(display);
}

static void test_success_takes_fd(void) {
	struct wl_display *display = wl_display_create();
	CHECK(display != NULL);
	struct gate *gate = adopting_gate(display, fw_client_create_real);
	int pair[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
	struct wl_client *client = wl_client_create(display, pair[0]);
	CHECK(client != NULL);
	CHECK(gate_connection_from_client(client) != NULL);
	/* The gate holds its own copy: wlroots' fd is gone. */
	CHECK(fcntl(pair[0], F_GETFD) < 0 && errno == EBADF);
	wl_client_destroy(client);
	close(pair[1]);
	fw_client_create_set_gate(NULL);
	gate_destroy(gate);
	wl_display_destroy(display);
}

/* What a client_created listener saw of the client being made. */
static int created, created_by_hand;

static void handle_created(struct wl_listener *listener, void *data) {
	created++;
	if (fw_client_create_by_hand()) {
		created_by_hand++;
	}
}

/*
 * A socket whose peer is another process, as libwayland's own accept
 * hands wl_client_create with --scheduler off: a child connects to a
 * listening socket and waits to be killed.
 */
static int accept_from_child(pid_t *child) {
	int listening = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(listening >= 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	/* Abstract: nothing to clean up. */
	snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1,
			"fairway-test-client-create-%d", (int)getpid());
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
			strlen(addr.sun_path + 1));
	CHECK(bind(listening, (struct sockaddr *)&addr, len) == 0);
	CHECK(listen(listening, 1) == 0);
	*child = fork();
	CHECK(*child >= 0);
	if (*child == 0) {
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&addr, len) != 0) {
			_exit(1);
		}
		pause();
		_exit(0);
	}
	int fd = accept4(listening, NULL, NULL, SOCK_CLOEXEC);
	CHECK(fd >= 0);
	close(listening);
	return fd;
}

/*
 * Whether a client made with create on one end of a new socketpair of
 * ours was seen made by hand, as client_created ran.
 */
static bool made_by_hand(struct wl_display *display,
		struct wl_client *(*create)(struct wl_display *, int)) {
	int pair[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
	created = created_by_hand = 0;
	struct wl_client *client = create(display, pair[0]);
	CHECK(client != NULL);
	CHECK_INT(created, 1);
	wl_client_destroy(client);
	close(pair[1]);
	return created_by_hand == 1;
}

/*
 * Xwayland's client is known as it is made: on a socketpair of fairway's,
 * by hand, with the gate or without; one accepted from another process
 * is not, and neither is one made outside wl_client_create.
 */
static void test_by_hand(void) {
	struct wl_display *display = wl_display_create();
	CHECK(display != NULL);
	struct wl_listener listener = {.notify = handle_created};
	wl_display_add_client_created_listener(display, &listener);
	CHECK(!fw_client_create_by_hand());

	CHECK(made_by_hand(display, wl_client_create));
	CHECK(!fw_client_create_by_hand());
	CHECK(!made_by_hand(display, fw_client_create_real));

	pid_t child;
	int fd = accept_from_child(&child);
	created = created_by_hand = 0;
	struct wl_client *client = wl_client_create(display, fd);
	CHECK(client != NULL);
	CHECK_INT(created, 1);
	CHECK_INT(created_by_hand, 0);
	wl_client_destroy(client);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	struct gate *gate = adopting_gate(display, fw_client_create_real);
	CHECK(made_by_hand(display, wl_client_create));
	fw_client_create_set_gate(NULL);
	gate_destroy(gate);
	wl_list_remove(&listener.link);
	wl_display_destroy(display);
}

int main(void) {
	test_failure_leaves_fd();
	test_success_takes_fd();
	test_by_hand();
	return 0;
}
