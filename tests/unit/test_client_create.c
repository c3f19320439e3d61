#include "compositor/sched/client_create.h"
#include "scheduler/gate.h"
#include "tests/unit/check.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
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

static void test_failure_leaves_fd(void) {
	struct wl_display *display = wl_display_create();
	CHECK(display != NULL);
	struct gate_config config;
	gate_config_default(&config);
	config.create_client = failing_create;
	struct gate *gate = gate_create(display, &config);
	CHECK(gate != NULL);
	fw_client_create_set_gate(gate);
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
	struct gate_config config;
	gate_config_default(&config);
	config.create_client = fw_real_wl_client_create;
	struct gate *gate = gate_create(display, &config);
	CHECK(gate != NULL);
	fw_client_create_set_gate(gate);
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

int main(void) {
	test_failure_leaves_fd();
	test_success_takes_fd();
	return 0;
}
