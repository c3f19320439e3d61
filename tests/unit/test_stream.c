/*
 * The fd-carrying stream over real socketpairs: fds travel in order, never
 * after the bytes that came with them, at most 28 per sendmsg, and a
 * partial send loses nothing. And in memory, the way libwayland is served:
 * given into a recvmsg's msghdr, and taken from a sendmsg's.
 */
#include "scheduler/wire/stream.h"
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
		CHECK(stream_recv(&stream, in[1], 1 << 20, SIZE_MAX, &eof, &most) >= 0);
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
		CHECK(stream_recv(&stream, in[1], 1 << 20, SIZE_MAX, &eof, &most) >= 0);
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
	CHECK_INT(stream_recv(&stream, in[1], 1 << 20, SIZE_MAX, &eof, &most), 4);
	CHECK(!eof);
	CHECK(memcmp(stream_data(&stream), "tail", 4) == 0);
	CHECK_INT(stream_recv(&stream, in[1], 1 << 20, SIZE_MAX, &eof, &most), 0);
	CHECK(eof);
	CHECK_INT(stream_len(&stream), 4);
	stream_finish(&stream);
	close(in[1]);
}

/* Fills a stream from a socket until it holds len bytes. */
static void fill_from(struct stream *stream, int fd, size_t len) {
	for (int reads = 0; stream_len(stream) < len; reads++) {
		int eof, most;
		CHECK(reads < 100);
		CHECK(stream_recv(stream, fd, 1 << 20, SIZE_MAX, &eof, &most) >= 0);
		CHECK(!eof);
	}
}

/* A msghdr as libwayland's wl_connection_read sets one up. */
struct wayland_read {
	char ring[2][8];
	struct iovec iov[2];
	union {
		char buf[CMSG_LEN(STREAM_MAX_FDS_PER_MSG * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct msghdr msg;
};

static void wayland_read_init(struct wayland_read *read, size_t first) {
	memset(read, 0, sizeof(*read));
	/* Its ring buffer wraps: two iovecs. */
	read->iov[0] = (struct iovec){.iov_base = read->ring[0], .iov_len = first};
	read->iov[1] = (struct iovec){.iov_base = read->ring[1], .iov_len = 8};
	read->msg = (struct msghdr){
			.msg_iov = read->iov,
			.msg_iovlen = 2,
			.msg_control = read->control.buf,
			.msg_controllen = sizeof(read->control.buf),
	};
}

static int given_fds(struct msghdr *msg, int *fds) {
	int n = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		CHECK(c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS);
		int count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		memcpy(fds + n, CMSG_DATA(c), count * sizeof(int));
		n += count;
	}
	return n;
}

/*
 * Given in memory, bytes fill both iovecs in order, and their fds come in
 * the control message, in order, open, and the reader's to close.
 */
static void test_give(void) {
	int in[2];
	make_pair(in);
	ino_t ino[2];
	int fds[2] = {numbered_fd(&ino[0]), numbered_fd(&ino[1])};
	send_with_fds(in[0], "AAAA", 4, NULL, 0);
	send_with_fds(in[0], "BBBB", 4, &fds[0], 1);
	send_with_fds(in[0], "CCCC", 4, &fds[1], 1);
	close(fds[0]);
	close(fds[1]);
	struct stream stream;
	stream_init(&stream);
	fill_from(&stream, in[1], 12);

	struct wayland_read read;
	wayland_read_init(&read, 5);
	/* 10 of the 12: both fds are due (B starts at 4, C at 8). */
	CHECK_INT(stream_give(&stream, 10, &read.msg), 10);
	CHECK(memcmp(read.ring[0], "AAAAB", 5) == 0);
	CHECK(memcmp(read.ring[1], "BBBCC", 5) == 0);
	CHECK_INT(read.msg.msg_flags, 0);
	int got[STREAM_MAX_FDS_PER_MSG];
	CHECK_INT(given_fds(&read.msg, got), 2);
	CHECK(inode_of(got[0]) == ino[0] && inode_of(got[1]) == ino[1]);
	close(got[0]);
	close(got[1]);
	CHECK_INT(stream_len(&stream), 2);
	CHECK_INT(stream_fd_count(&stream), 0);

	wayland_read_init(&read, 8);
	CHECK_INT(stream_give(&stream, 2, &read.msg), 2);
	CHECK(memcmp(read.ring[0], "CC", 2) == 0);
	CHECK_INT(read.msg.msg_controllen, 0);
	CHECK_INT(given_fds(&read.msg, got), 0);
	stream_finish(&stream);
	close(in[0]);
	close(in[1]);
}

/*
 * 30 fds due, room for 28: the give stops where the 29th came in, so that
 * it and the last go with the rest. With no room for fds at all, an fd due
 * with the first byte gets nothing: EAGAIN, never 0 (an end of stream).
 */
static void test_give_fd_room(void) {
	int in[2];
	make_pair(in);
	ino_t ino[30];
	int fds[30];
	for (int i = 0; i < 30; i++) {
		fds[i] = numbered_fd(&ino[i]);
	}
	send_with_fds(in[0], "aaaa", 4, fds, 20);
	send_with_fds(in[0], "bbbb", 4, fds + 20, 10);
	for (int i = 0; i < 30; i++) {
		close(fds[i]);
	}
	struct stream stream;
	stream_init(&stream);
	fill_from(&stream, in[1], 8);

	struct wayland_read read;
	wayland_read_init(&read, 8);
	read.msg.msg_controllen = 0;
	errno = 0;
	CHECK_INT(stream_give(&stream, 8, &read.msg), -1);
	CHECK_INT(errno, EAGAIN);
	CHECK_INT(stream_len(&stream), 8);

	int got[STREAM_MAX_FDS_PER_MSG];
	int next = 0;
	for (int gives = 0; stream_len(&stream) > 0; gives++) {
		CHECK(gives < 2);
		wayland_read_init(&read, 8);
		size_t before = stream_len(&stream);
		ssize_t n = stream_give(&stream, before, &read.msg);
		CHECK(n > 0);
		int count = given_fds(&read.msg, got);
		CHECK(count <= STREAM_MAX_FDS_PER_MSG);
		for (int i = 0; i < count; i++) {
			CHECK(inode_of(got[i]) == ino[next++]);
			close(got[i]);
		}
		/* Every fd is there by the end of the bytes it came with. */
		size_t given = 8 - stream_len(&stream);
		CHECK(next >= (given >= 4 ? 20 : 0) && next >= (given == 8 ? 30 : 0));
	}
	CHECK_INT(next, 30);
	stream_finish(&stream);
	close(in[0]);
	close(in[1]);
}

/*
 * What a sendmsg would send, taken into the stream: the bytes of every
 * iovec, and the fds, which stay open once the sender closes its own and
 * go out with the first byte.
 */
static void test_append_msg(void) {
	ino_t ino;
	int fd = numbered_fd(&ino);
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov[2] = {
			{.iov_base = "head", .iov_len = 4},
			{.iov_base = "tail", .iov_len = 4},
	};
	struct msghdr msg = {
			.msg_iov = iov,
			.msg_iovlen = 2,
			.msg_control = control.buf,
			.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));

	struct stream stream;
	stream_init(&stream);
	CHECK(stream_append(&stream, "prev", 4) == 0);
	CHECK_INT(stream_append_msg(&stream, &msg), 8);
	close(fd);
	CHECK_INT(stream_len(&stream), 12);
	CHECK_INT(stream_fd_count(&stream), 1);

	int out[2];
	make_pair(out);
	CHECK_INT(stream_send(&stream, out[0], 12), 12);
	char buf[64];
	int rfds[4], nfds;
	/* The fd may come early, with "prev", never after "head". */
	CHECK_INT(recv_once(out[1], buf, sizeof(buf), rfds, &nfds), 12);
	CHECK(memcmp(buf, "prevheadtail", 12) == 0);
	CHECK_INT(nfds, 1);
	CHECK(inode_of(rfds[0]) == ino);
	close(rfds[0]);
	stream_finish(&stream);
	close(out[0]);
	close(out[1]);
}

/*
 * A byte at a time with 28 fds each: one read stops at its fd budget, and
 * takes past it at most the fds of the one sendmsg it stopped on.
 */
static void test_fd_budget(void) {
	int pair[2];
	make_pair(pair);
	int fds[28];
	for (int i = 0; i < 28; i++) {
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		CHECK(fds[i] >= 0);
	}
	for (int i = 0; i < 100; i++) {
		send_with_fds(pair[0], "x", 1, fds, 28);
	}
	struct stream stream;
	stream_init(&stream);
	int eof, most;
	ssize_t n = stream_recv(&stream, pair[1], 1 << 20, 56, &eof, &most);
	fprintf(stderr, "budget 56: %zd bytes, %zu fds\n", n,
			stream_fd_count(&stream));
	CHECK(stream_fd_count(&stream) >= 56);
	CHECK(stream_fd_count(&stream) <= 56 + 27);
	CHECK_INT(n, (ssize_t)stream_fd_count(&stream) / 28);
	stream_finish(&stream);
	for (int i = 0; i < 28; i++) {
		close(fds[i]);
	}
	close(pair[0]);
	close(pair[1]);
}

static void drain(struct stream *stream) {
	uint8_t buf[4096];
	while (stream_len(stream) > 0) {
		struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf)};
		struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
		CHECK(stream_give(stream, stream_len(stream), &msg) > 0);
	}
}

/*
 * A burst grows the buffer; once the stream is quiet again, the memory
 * goes back. One that bursts again and again keeps it.
 */
static void test_shrinks_after_burst(void) {
	struct stream stream;
	stream_init(&stream);
	static uint8_t burst[1 << 20];
	for (int i = 0; i < 100; i++) {
		CHECK(stream_append(&stream, burst, sizeof(burst)) == 0);
		drain(&stream);
	}
	CHECK(stream.capacity >= sizeof(burst));
	/* Then quiet: a little at a time. */
	for (int i = 0; i < 100; i++) {
		CHECK(stream_append(&stream, burst, 100) == 0);
		drain(&stream);
	}
	fprintf(stderr, "capacity after the burst: %zu\n", stream.capacity);
	CHECK(stream.capacity <= 64 * 1024);
	/* And it still works. */
	CHECK(stream_append(&stream, "abc", 3) == 0);
	CHECK_INT(stream_len(&stream), 3);
	stream_finish(&stream);
}

int main(void) {
	RUN_TEST(test_fd_budget);
	RUN_TEST(test_shrinks_after_burst);
	RUN_TEST(test_fds_never_late);
	RUN_TEST(test_at_most_28_per_sendmsg);
	RUN_TEST(test_partial_send);
	RUN_TEST(test_eof);
	RUN_TEST(test_give);
	RUN_TEST(test_give_fd_room);
	RUN_TEST(test_append_msg);
	return 0;
}
