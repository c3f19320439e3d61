#include "scheduler/process/peer.h"
#include "scheduler/process/unix_peers.h"
#include "scheduler/wire/stream.h"
#include "tests/unit/check.h"
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Pinning a client's process: at accept through SO_PEERPIDFD, before Linux
 * 6.5 through the pid, which must name a process that started no later
 * than the accept and runs as the uid that connected, with no setuid
 * about it; and, on a socket fairway made, through the credentials the
 * kernel attaches to what the other end writes; and an X client, from the
 * pid Xwayland reports, only while that pid's process holds a connection
 * to Xwayland and runs as Xwayland's uid.
 */

static pid_t start_child(uid_t ruid, uid_t euid) {
	int ready[2];
	CHECK(pipe(ready) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		if ((ruid != getuid() || euid != geteuid()) &&
				setresuid(ruid, euid, euid) != 0) {
			_exit(1);
		}
		if (write(ready[1], "r", 1) != 1) {
			_exit(1);
		}
		for (;;) {
			pause();
		}
	}
	close(ready[1]);
	char c;
	CHECK_INT(read(ready[0], &c, 1), 1);
	close(ready[0]);
	return pid;
}

static void stop_child(pid_t pid) {
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Whether the pinned process still runs, as its pidfd says. */
static bool pinned_alive(const struct peer *peer) {
	if (peer->pidfd < 0) {
		return false;
	}
	return syscall(SYS_pidfd_send_signal, peer->pidfd, 0, NULL, 0) == 0 ||
			errno == EPERM;
}

static void sleep_ticks(int ticks) {
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec ts = {.tv_nsec = (long)ticks * (1000000000L / hz)};
	while (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	nanosleep(&ts, NULL);
}

/* The fallback: a pid, a start time, the uids. */
static void test_pin_pid(void) {
	struct peer peer;
	peer_init(&peer);
	pid_t before = start_child(getuid(), geteuid());
	sleep_ticks(2);
	uint64_t accepted = peer_now_ticks();
	sleep_ticks(3);
	pid_t after = start_child(getuid(), geteuid());

	CHECK(peer_pin_pid(&peer, before, geteuid(), -1, accepted));
	CHECK_INT(peer.pid, before);
	CHECK(peer.pidfd >= 0);
	CHECK(pinned_alive(&peer));
	int copy = peer_dup_pidfd(&peer);
	CHECK(copy >= 0 && copy != peer.pidfd);
	close(copy);

	/* A process that started after the accept is not the one. */
	CHECK(!peer_pin_pid(&peer, after, geteuid(), -1, accepted));
	CHECK_INT(peer.pid, 0);
	CHECK_INT(peer.pidfd, -1);
	/* Nor one of another uid. */
	CHECK(!peer_pin_pid(&peer, before, geteuid() + 1, -1, accepted));
	stop_child(after);

	/* Gone: its pidfd says so. */
	CHECK(peer_pin_pid(&peer, before, geteuid(), -1, accepted));
	stop_child(before);
	CHECK(!pinned_alive(&peer));
	peer_finish(&peer);
	CHECK(!peer_pin_pid(&peer, before, geteuid(), -1, accepted));
}

/* A setuid program: its effective (and saved) uid is not its real one. */
static void test_setuid_refused(void) {
	if (geteuid() != 0) {
		fprintf(stderr, "not root: setuid case skipped\n");
		return;
	}
	struct peer peer;
	peer_init(&peer);
	pid_t setuid_like = start_child(65534, 0);
	CHECK(peer_uids_are(setuid_like, (uid_t)-1) == false);
	CHECK(!peer_pin_pid(&peer, setuid_like, 65534, -1, peer_now_ticks()));
	CHECK(!peer_pin_pid(&peer, setuid_like, 0, -1, peer_now_ticks()));
	stop_child(setuid_like);
	pid_t dropped = start_child(65534, 65534);
	CHECK(peer_uids_are(dropped, 65534));
	CHECK(peer_uids_are(dropped, (uid_t)-1));
	CHECK(peer_pin_pid(&peer, dropped, 65534, -1, peer_now_ticks()));
	peer_finish(&peer);
	stop_child(dropped);
}

/* At accept: whoever connected (here, this process). */
static void test_pin_socket(void) {
	int pair[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
	struct peer peer;
	peer_init(&peer);
	CHECK(peer_pin_socket(&peer, pair[0], peer_now_ticks()));
	CHECK_INT(peer.pid, getpid());
	CHECK_INT(peer.uid, geteuid());
	peer_finish(&peer);
	close(pair[0]);
	close(pair[1]);
}

/* A socketpair names its maker: the writer is pinned from what it wrote. */
static void test_pin_writer(void) {
	int pair[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
	peer_pass_credentials(pair[0], true);
	int go[2];
	CHECK(pipe(go) == 0);
	pid_t writer = fork();
	CHECK(writer >= 0);
	if (writer == 0) {
		close(go[1]);
		char c;
		if (read(go[0], &c, 1) != 1) {
			_exit(1);
		}
		if (write(pair[1], "hello", 5) != 5) {
			_exit(1);
		}
		for (;;) {
			pause();
		}
	}
	close(pair[1]);
	close(go[0]);
	struct stream stream;
	stream_init(&stream);
	CHECK(write(go[1], "g", 1) == 1);
	int eof = 0, most = 0;
	for (int i = 0; i < 1000 && stream_len(&stream) < 5; i++) {
		CHECK(stream_recv(&stream, pair[0], 4096, 1024, &eof, &most) >= 0);
		usleep(1000);
	}
	CHECK_INT(stream_len(&stream), 5);
	CHECK(stream.sender.known);
	CHECK_INT(stream.sender.pid, writer);
	CHECK_INT(stream.sender.uid, geteuid());
	struct peer peer;
	peer_init(&peer);
	CHECK(peer_pin_pid(&peer, stream.sender.pid, stream.sender.uid,
			stream.sender.pidfd, peer_now_ticks()));
	stream.sender.pidfd = -1;
	CHECK_INT(peer.pid, writer);
	fprintf(stderr, "writer pinned through %s\n",
			peer.pidfd >= 0 ? "its pidfd" : "its pid");
	peer_pass_credentials(pair[0], false);
	peer_finish(&peer);
	stream_finish(&stream);
	stop_child(writer);
	close(pair[0]);
	close(go[1]);
}

/* Where a child keeps the one socket it holds (SOCKET_NONE: none). */
#define KEPT_FD 100
#define SOCKET_NONE (-1)

/*
 * A child that holds fd (as KEPT_FD) and nothing else of ours, runs as
 * uid, and waits. With listen, it accepts one connection on fd first and
 * holds that too.
 */
static pid_t start_holder(int fd, uid_t uid, bool listen_first) {
	int ready[2];
	CHECK(pipe(ready) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		/* A failed CHECK must not leave it holding the test's stdout. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0 && dup2(fd, KEPT_FD) != KEPT_FD) {
			_exit(1);
		}
		if (dup2(ready[1], KEPT_FD + 2) != KEPT_FD + 2) {
			_exit(1);
		}
		/* Nothing the test holds for its other children. */
		syscall(SYS_close_range, 3, KEPT_FD - 1, 0);
		syscall(SYS_close_range, fd >= 0 ? KEPT_FD + 1 : KEPT_FD, KEPT_FD + 1,
				0);
		syscall(SYS_close_range, KEPT_FD + 3, ~0U, 0);
		if (uid != geteuid() && setresuid(uid, uid, uid) != 0) {
			_exit(1);
		}
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* a uid change cleared it */
		if (listen_first &&
				dup2(accept(KEPT_FD, NULL, NULL), KEPT_FD + 1) != KEPT_FD + 1) {
			_exit(1);
		}
		if (write(KEPT_FD + 2, "r", 1) != 1) {
			_exit(1);
		}
		for (;;) {
			pause();
		}
	}
	close(ready[1]);
	if (!listen_first) {
		char c;
		CHECK_INT(read(ready[0], &c, 1), 1);
		close(ready[0]);
	} else {
		/* The test connects first; this is read in wait_holder. */
		CHECK(dup2(ready[0], KEPT_FD + 10) == KEPT_FD + 10);
		close(ready[0]);
	}
	return pid;
}

static void wait_holder(void) {
	char c;
	CHECK_INT(read(KEPT_FD + 10, &c, 1), 1);
	close(KEPT_FD + 10);
}

/* Xwayland, pinned as the gate pins it. */
static void pin_xwayland(struct peer *xwayland, pid_t pid) {
	peer_init(xwayland);
	CHECK(peer_pin_pid(xwayland, pid, geteuid(), -1, peer_now_ticks()));
}

/* A connection made through accept, as X clients make theirs. */
static void test_x_client_accepted(void) {
	char dir[] = "/tmp/fw-peer-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/X0", dir);
	int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(listener >= 0);
	CHECK(bind(listener, (struct sockaddr *)&addr, sizeof(addr)) == 0);
	CHECK(listen(listener, 4) == 0);
	pid_t xwayland_pid = start_holder(listener, geteuid(), true);
	close(listener);
	int conn = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(conn >= 0);
	CHECK(connect(conn, (struct sockaddr *)&addr, sizeof(addr)) == 0);
	wait_holder();
	pid_t client = start_holder(conn, geteuid(), false);
	close(conn);
	struct peer xwayland, peer;
	pin_xwayland(&xwayland, xwayland_pid);
	peer_init(&peer);
	CHECK(unix_peers_connected(client, xwayland_pid) == UNIX_PEERS_YES);
	CHECK(peer_pin_x_client(&peer, client, &xwayland));
	CHECK_INT(peer.pid, client);
	CHECK_INT(peer.uid, geteuid());
	CHECK(pinned_alive(&peer));
	/* Pinned: once it is gone, the pidfd says so, whoever has the pid. */
	stop_child(client);
	CHECK(!pinned_alive(&peer));
	peer_finish(&peer);
	peer_finish(&xwayland);
	stop_child(xwayland_pid);
	unlink(addr.sun_path);
	rmdir(dir);
}

/* Who holds an end to Xwayland, and who does not. */
static void test_x_client_proof(void) {
	int x[2], other[2];
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, x) == 0);
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, other) == 0);
	pid_t xwayland_pid = start_holder(x[0], geteuid(), false);
	pid_t client = start_holder(x[1], geteuid(), false);
	pid_t idle = start_holder(SOCKET_NONE, geteuid(), false);
	pid_t elsewhere = start_holder(other[0], geteuid(), false);
	pid_t elsewhere_peer = start_holder(other[1], geteuid(), false);
	close(other[0]);
	close(other[1]);
	struct peer xwayland, peer;
	peer_init(&peer);
	pin_xwayland(&xwayland, xwayland_pid);

	CHECK(peer_pin_x_client(&peer, client, &xwayland));
	CHECK_INT(peer.pid, client);
	/* A process with no socket, and one connected to someone else. */
	CHECK(!peer_pin_x_client(&peer, idle, &xwayland));
	CHECK_INT(peer.pidfd, -1);
	CHECK(!peer_pin_x_client(&peer, elsewhere, &xwayland));
	CHECK(unix_peers_connected(elsewhere, elsewhere_peer) == UNIX_PEERS_YES);
	CHECK(unix_peers_connected(elsewhere, xwayland_pid) == UNIX_PEERS_NO);
	/* Xwayland itself, fairway, and no pid at all. */
	CHECK(!peer_pin_x_client(&peer, xwayland_pid, &xwayland));
	CHECK(!peer_pin_x_client(&peer, getpid(), &xwayland));
	CHECK(!peer_pin_x_client(&peer, 0, &xwayland));
	/* A gone pid. */
	stop_child(idle);
	CHECK(!peer_pin_x_client(&peer, idle, &xwayland));

	/* Another uid holding a connection to Xwayland. */
	if (geteuid() == 0) {
		pid_t foreign = start_holder(x[1], 65534, false);
		CHECK(unix_peers_connected(foreign, xwayland_pid) == UNIX_PEERS_YES);
		CHECK(!peer_pin_x_client(&peer, foreign, &xwayland));
		stop_child(foreign);
	} else {
		fprintf(stderr, "not root: another uid's X client not tried\n");
	}
	/* Xwayland not pinned: nothing is. */
	struct peer unpinned;
	peer_init(&unpinned);
	CHECK(!peer_pin_x_client(&peer, client, &unpinned));
	close(x[0]);
	close(x[1]);
	peer_finish(&peer);
	peer_finish(&xwayland);
	stop_child(client);
	stop_child(elsewhere);
	stop_child(elsewhere_peer);
	stop_child(xwayland_pid);
}

int main(void) {
	test_pin_pid();
	test_setuid_refused();
	test_pin_socket();
	test_pin_writer();
	test_x_client_proof();
	test_x_client_accepted();
	return 0;
}
