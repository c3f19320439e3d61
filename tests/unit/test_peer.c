#include "scheduler/peer.h"
#include "scheduler/stream.h"
#include "tests/unit/check.h"
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Pinning a client's process: at accept through SO_PEERPIDFD, before Linux
 * 6.5 through the pid, which must name a process that started no later
 * than the accept and runs as the uid that connected, with no setuid
 * about it; and, on a socket fairway made, through the credentials the
 * kernel attaches to what the other end writes.
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

int main(void) {
	test_pin_pid();
	test_setuid_refused();
	test_pin_socket();
	test_pin_writer();
	return 0;
}
