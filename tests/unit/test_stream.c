/*
 * The fd-carrying stream over real socketpairs: fds travel in order, never
 * after the bytes that came with them, at most 28 per sendmsg, and a
 * partial send loses nothing.
 */
#include "scheduler/stream.h"
#include "tests/common/raw_wire.h"
#include "tests/unit/check.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define RUN_TEST(fn) \
	do { \
		fn(); \
		fprintf(stderr, "ok %s\n", #fn); \
	} while (0)

static void make_pair(int pair[2]) {
	CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
}

/* Sends bytes with fds in one sendmsg, as a client would. */
static void send_with_fds(
		int fd, const void *data, size_t len, const int *fds, int nfds) {
	CHECK(raw_wire_send(fd, data, len, fds, nfds) == (ssize_t)len);
}

/*
 * One recvmsg at a time, the way libwayland reads: returns the bytes and
 * the fds of that read.
 */
static ssize_t recv_once(int fd, void *buf, size_t len, int *fds, int *nfds) {
	union {
		char buf[CMSG_SPACE(253 * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	struct msghdr msg = {
			.msg_iov = &iov,
			.msg_iovlen = 1,
			.msg_control = control.buf,
			.msg_controllen = sizeof(control.buf),
	};
	ssize_t n = recvmsg(fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	*nfds = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		int count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(fds + *nfds, CMSG_DATA(c), count * sizeof(int));
		*nfds += count;
	}
	CHECK(!(msg.msg_flags & MSG_CTRUNC));
	return n;
}

/* A file whose identity (inode) says which fd it is. */
static int numbered_fd(ino_t *inode) {
	int fd = memfd_create("stream-test", MFD_CLOEXEC);
	CHECK(fd >= 0);
	struct stat st;
	CHECK(fstat(fd, &st) == 0);
	*inode = st.st_ino;
	return fd;
}

static ino_t inode_of(int fd) {
	struct stat st;
	CHECK(fstat(fd, &st) == 0);
	return st.st_ino;
}

/*
 * Bytes A (no fd), then B with fd 1, then C with fd 2: relayed through a
 * stream, each fd arrives no later than the first byte it came with.
 */
static void test_fds_never_late(void) {
	int in[2], out[2];
	make_pair(in);
	make_pair(out);
	ino_t ino[2];
	int fds[2] = {numbered_fd(&ino[0]), numbered_fd(&ino[1])};
	send_with_fds(in[0], "AAAA", 4, NULL, 0);
	send_with_fds(in[0], "BBBB", 4, &fds[0], 1);
	send_with_fds(in[0], "CCCC", 4, &fds[1], 1);
	close(fds[0]);
	close(fds[1]);

	struct stream stream;
	stream_init(&stream);
	int got_bytes = 0;
	while (stream_len(&stream) < 12) {
		int eof, most;
		CHECK(stream_recv(&stream, in[1], 1 << 20, &eof, &most) >= 0);
		CHECK(!eof && most <= 1);
		got_bytes++;
		CHECK(got_bytes < 100);
	}
	CHECK_INT(stream_fd_count(&stream), 2);
	/* Pass on 6 bytes: B's fd is due (B starts at 4), C's is not. */
	CHECK_INT(stream_send(&stream, out[0], 6), 6);
	CHECK_INT(stream_fd_count(&stream), 1);
	CHECK_INT(stream_send(&stream, out[0], 6), 6);
	CHECK_INT(stream_fd_count(&stream), 0);

	char buf[64];
	int rfds[64], nfds;
	ssize_t n = recv_once(out[1], buf, sizeof(buf), rfds, &nfds);
	/* The first read ends with the sendmsg that carried an fd. */
	CHECK_INT(n, 6);
	CHECK_INT(nfds, 1);
	CHECK(inode_of(rfds[0]) == ino[0]);
	close(rfds[0]);
	n = recv_once(out[1], buf, sizeof(buf), rfds, &nfds);
	CHECK_INT(n, 6);
	CHECK_INT(nfds, 1);
	CHECK(inode_of(rfds[0]) == ino[1]);
	close(rfds[0]);

	stream_finish(&stream);
	close(in[0]);
	close(in[1]);
	close(out[0]);
	close(out[1]);
}

/* 60 fds due at once go out 28, 28 and 4, in order, one read each. */
static void test_at_most_28_per_sendmsg(void) {
	int in[2], out[2];
	make_pair(in);
	make_pair(out);
	ino_t ino[60];
	int fds[60];
	for (int i = 0; i < 60; i++) {
		fds[i] = numbered_fd(&ino[i]);
	}
	/* Three client sendmsgs of 20 fds each, 16 bytes apiece. */
	for (int i = 0; i < 3; i++) {
		send_with_fds(in[0], "0123456789abcdef", 16, fds + 20 * i, 20);
	}
	for (int i = 0; i < 60; i++) {
		close(fds[i]);
	}
	struct stream stream;
	stream_init(&stream);
	while (stream_len(&stream) < 48) {
		int eof, most;
		CHECK(stream_recv(&stream, in[1], 1 << 20, &eof, &most) >= 0);
		CHECK(most <= 20);
	}
	CHECK_INT(stream_send(&stream, out[0], 48), 48);
	CHECK_INT(stream_fd_count(&stream), 0);

	int next = 0, total = 0;
	while (total < 48) {
		char buf[64];
		int rfds[253], nfds;
		ssize_t n = recv_once(out[1], buf, sizeof(buf), rfds, &nfds);
		CHECK(n > 0);
		total += n;
		CHECK(nfds <= STREAM_MAX_FDS_PER_MSG);
		for (int i = 0; i < nfds; i++) {
			CHECK(inode_of(rfds[i]) == ino[next]);
			next++;
			close(rfds[i]);
		}
		/* Every fd of a client sendmsg is there by the end of its bytes. */
		CHECK(next >= 20 * (total / 16));
	}
	CHECK_INT(next, 60);
	stream_finish(&stream);
	close(in[0]);
	close(in[1]);
	close(out[0]);
	close(out[1]);
}

/* A full socket takes part; the rest stays queued, nothing is lost. */
static void test_partial_send(void) {
	int out[2];
	make_pair(out);
	int size = 4096;
	CHECK(setsockopt(out[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof(size)) == 0);
	struct stream stream;
	stream_init(&stream);
	static uint8_t data[1 << 20];
	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (uint8_t)(i * 7);
	}
	CHECK(stream_append(&stream, data, sizeof(data)) == 0);
	ssize_t sent = stream_send(&stream, out[0], sizeof(data));
	CHECK(sent > 0 && (size_t)sent < sizeof(data));
	CHECK_INT(stream_len(&stream), sizeof(data) - sent);
	/* A full socket is no error: 0 bytes now, more later. */
	CHECK_INT(stream_send(&stream, out[0], stream_len(&stream)), 0);

	static uint8_t got[1 << 20];
	size_t have = 0;
	while (have < sizeof(data)) {
		ssize_t n = read(out[1], got + have, sizeof(got) - have);
		CHECK(n > 0);
		have += n;
		if (stream_len(&stream) > 0) {
			CHECK(stream_send(&stream, out[0], stream_len(&stream)) >= 0);
		}
	}
	CHECK(memcmp(got, data, sizeof(data)) == 0);
	CHECK_INT(stream_len(&stream), 0);
	stream_finish(&stream);
	close(out[0]);
	close(out[1]);
}

/*
 * A hang-up is reported once the bytes before it were read: the short read
 * that takes them stops there, and the next call sees the end.
 */
static void test_eof(void) {
	int in[2];
	make_pair(in);
	send_with_fds(in[0], "tail", 4, NULL, 0);
	close(in[0]);
	struct stream stream;
	stream_init(&stream);
	int eof, most;
	CHECK_INT(stream_recv(&stream, in[1], 1 << 20, &eof, &most), 4);
	CHECK(!eof);
	CHECK(memcmp(stream_data(&stream), "tail", 4) == 0);
	CHECK_INT(stream_recv(&stream, in[1], 1 << 20, &eof, &most), 0);
	CHECK(eof);
	CHECK_INT(stream_len(&stream), 4);
	stream_finish(&stream);
	close(in[1]);
}

int main(void) {
	RUN_TEST(test_fds_never_late);
	RUN_TEST(test_at_most_28_per_sendmsg);
	RUN_TEST(test_partial_send);
	RUN_TEST(test_eof);
	return 0;
}
