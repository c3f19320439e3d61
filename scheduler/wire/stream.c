#include "scheduler/wire/stream.h"
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RECV_CHUNK 65536
/*
 * A read takes the room already at the tail when there is at least this
 * much: asking for a whole RECV_CHUNK would move the queued bytes to the
 * front (or grow the buffer) at nearly every read of a steady stream.
 */
#define RECV_MIN_ROOM 4096

#ifndef SCM_PIDFD
#define SCM_PIDFD 0x04 /* Linux 6.5 */
#endif

void stream_init(struct stream *stream) {
	memset(stream, 0, sizeof(*stream));
	stream->sender.pidfd = -1;
}

void stream_finish(struct stream *stream) {
	for (size_t i = stream->fds_head; i < stream->fds_tail; i++) {
		close(stream->fds[i].fd);
	}
	if (stream->sender.pidfd >= 0) {
		close(stream->sender.pidfd);
	}
	free(stream->data);
	free(stream->fds);
	stream_init(stream);
}

/*
 * Makes room for `extra` more items at the tail of one of the stream's
 * queues, bytes or fds: *items holds [*head, *tail) of *capacity items of
 * `size` bytes each. Compacts first, then grows from `initial`.
 */
static int reserve(void **items, size_t size, size_t initial, size_t *head,
		size_t *tail, size_t *capacity, size_t extra) {
	if (*capacity - *tail >= extra) {
		return 0;
	}
	size_t count = *tail - *head;
	if (*head > 0) {
		memmove(*items, (uint8_t *)*items + *head * size, count * size);
		*head = 0;
		*tail = count;
	}
	if (*capacity - *tail >= extra) {
		return 0;
	}
	size_t grown = *capacity ? *capacity : initial;
	while (grown - count < extra) {
		grown *= 2;
	}
	void *moved = realloc(*items, grown * size);
	if (!moved) {
		return -1;
	}
	*items = moved;
	*capacity = grown;
	return 0;
}

static int reserve_bytes(struct stream *stream, size_t extra) {
	if (stream_len(stream) + extra > stream->high) {
		stream->high = stream_len(stream) + extra;
	}
	void *data = stream->data;
	int result = reserve(&data, 1, 4096, &stream->head, &stream->tail,
			&stream->capacity, extra);
	stream->data = data;
	return result;
}

static int reserve_fds(struct stream *stream, size_t extra) {
	void *fds = stream->fds;
	int result = reserve(&fds, sizeof(*stream->fds), 32, &stream->fds_head,
			&stream->fds_tail, &stream->fds_capacity, extra);
	stream->fds = fds;
	return result;
}

/* One sendmsg or recvmsg that never blocks, retried if interrupted. */
static ssize_t transfer(int fd, struct msghdr *msg, bool send) {
	ssize_t n;
	do {
		n = send ? sendmsg(fd, msg, MSG_DONTWAIT | MSG_NOSIGNAL)
				 : recvmsg(fd, msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	return n;
}

static bool would_block(void) {
	return errno == EAGAIN || errno == EWOULDBLOCK;
}

int stream_append(struct stream *stream, const void *data, size_t len) {
	if (reserve_bytes(stream, len) < 0) {
		return -1;
	}
	memcpy(stream->data + stream->tail, data, len);
	stream->tail += len;
	return 0;
}

static void close_all(const int *fds, size_t count) {
	for (size_t i = 0; i < count; i++) {
		close(fds[i]);
	}
}

/*
 * Keeps the first writer's credentials; a pidfd that is not kept is
 * closed, as every recvmsg on a socket passing them brings a new one.
 */
static void take_sender(struct stream *stream, struct cmsghdr *cmsg) {
	struct stream_sender *sender = &stream->sender;
	if (cmsg->cmsg_type == SCM_CREDENTIALS &&
			cmsg->cmsg_len >= CMSG_LEN(sizeof(struct ucred)) &&
			!sender->known) {
		struct ucred cred;
		memcpy(&cred, CMSG_DATA(cmsg), sizeof(cred));
		sender->known = true;
		sender->pid = cred.pid;
		sender->uid = cred.uid;
	} else if (cmsg->cmsg_type == SCM_PIDFD &&
			cmsg->cmsg_len >= CMSG_LEN(sizeof(int))) {
		int pidfd;
		memcpy(&pidfd, CMSG_DATA(cmsg), sizeof(pidfd));
		if (sender->pidfd < 0) {
			sender->pidfd = pidfd;
		} else {
			close(pidfd);
		}
	}
}

/*
 * Takes the fds out of every SCM_RIGHTS message, and the writer's
 * credentials where they came; returns how many fds.
 */
static int take_fds(struct stream *stream, struct msghdr *msg, uint64_t tag) {
	int count = 0;
	for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(msg); cmsg;
			cmsg = CMSG_NXTHDR(msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_SOCKET) {
			continue;
		}
		if (cmsg->cmsg_type != SCM_RIGHTS) {
			take_sender(stream, cmsg);
			continue;
		}
		size_t n = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		int fds[STREAM_MAX_FDS_PER_RECV];
		memcpy(fds, CMSG_DATA(cmsg), n * sizeof(int));
		if (reserve_fds(stream, n) < 0) {
			close_all(fds, n);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			stream->fds[stream->fds_tail++] =
					(struct stream_fd){.tag = tag, .fd = fds[i]};
		}
		count += n;
	}
	return count;
}

ssize_t stream_recv(struct stream *stream, int fd, size_t max, size_t max_fds,
		int *eof, int *fds_in_one_read) {
	/* Room for the writer's credentials too, where they are passed. */
	union {
		char buf[CMSG_SPACE(STREAM_MAX_FDS_PER_RECV * sizeof(int)) +
				CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	size_t total = 0, fds_taken = 0;
	*eof = 0;
	*fds_in_one_read = 0;
	while (total < max && fds_taken < max_fds) {
		size_t want = max - total < RECV_CHUNK ? max - total : RECV_CHUNK;
		size_t room = stream->capacity - stream->tail;
		/* A sender that filled the last read has more: it gets one large
		 * read rather than one per page. */
		if (room >= RECV_MIN_ROOM && room < want && !stream->streaming) {
			want = room;
		} else if (stream->capacity == 0 && want > RECV_MIN_ROOM) {
			/* A first read takes a page: most clients never need more,
			 * and one that does grows the buffer as it reads on. */
			want = RECV_MIN_ROOM;
		}
		if (reserve_bytes(stream, want) < 0) {
			errno = ENOMEM;
			return -1;
		}
		struct iovec iov = {
				.iov_base = stream->data + stream->tail,
				.iov_len = want,
		};
		struct msghdr msg = {
				.msg_iov = &iov,
				.msg_iovlen = 1,
				.msg_control = control.buf,
				.msg_controllen = sizeof(control.buf),
		};
		ssize_t n = transfer(fd, &msg, false);
		if (n < 0) {
			if (would_block()) {
				break;
			}
			return total > 0 ? (ssize_t)total : -1;
		}
		uint64_t tag = stream->offset + stream_len(stream);
		int fds = take_fds(stream, &msg, tag);
		if (fds < 0) {
			errno = ENOMEM;
			return -1;
		}
		fds_taken += (size_t)fds;
		if (fds > *fds_in_one_read) {
			*fds_in_one_read = fds;
		}
		if (msg.msg_flags & MSG_CTRUNC) {
			*fds_in_one_read = STREAM_MAX_FDS_PER_RECV + 1;
		}
		if (n == 0) {
			*eof = 1;
			break;
		}
		stream->tail += n;
		total += n;
		/*
		 * A short read without fds drained the socket: asking again would
		 * only return EAGAIN, one more syscall per wakeup on the hot path.
		 * (A read with fds stops early at their message's boundary, and
		 * an end of stream after the data shows at the next wakeup.)
		 */
		stream->streaming = (size_t)n == want;
		if ((size_t)n < want && fds == 0) {
			break;
		}
	}
	return total;
}

/*
 * Gives back what a burst grew, once the stream is quiet again; a small
 * buffer goes at once, so that an idle client holds none (a busy one
 * gets its page back from malloc at its next read).
 */
static void emptied(struct stream *stream) {
	if (stream->capacity <= RECV_MIN_ROOM) {
		free(stream->data);
		stream->data = NULL;
		stream->capacity = 0;
	}
	if (stream->fds_head == stream->fds_tail && stream->fds_capacity > 0 &&
			stream->fds_capacity * sizeof(*stream->fds) <= RECV_MIN_ROOM) {
		free(stream->fds);
		stream->fds = NULL;
		stream->fds_head = stream->fds_tail = stream->fds_capacity = 0;
	}
	stream->quiet =
			stream->high <= STREAM_KEEP_CAPACITY / 4 ? stream->quiet + 1 : 0;
	stream->high = 0;
	if (stream->quiet < STREAM_QUIET_EMPTIES) {
		return;
	}
	stream->quiet = 0;
	if (stream->capacity > STREAM_KEEP_CAPACITY) {
		free(stream->data);
		stream->data = NULL;
		stream->capacity = 0;
	}
	if (stream->fds_head == stream->fds_tail &&
			stream->fds_capacity * sizeof(*stream->fds) >
					STREAM_KEEP_CAPACITY) {
		free(stream->fds);
		stream->fds = NULL;
		stream->fds_head = stream->fds_tail = stream->fds_capacity = 0;
	}
}

/* Drops the first `len` bytes and every fd tagged before their end. */
static void consume(struct stream *stream, size_t len, size_t fds_sent) {
	stream->head += len;
	stream->offset += len;
	stream->fds_head += fds_sent;
	if (stream->fds_head == stream->fds_tail) {
		stream->fds_head = stream->fds_tail = 0;
	}
	if (stream->head == stream->tail) {
		stream->head = stream->tail = 0;
		emptied(stream);
	}
}

/*
 * How much of the first len bytes can go in one message carrying at most
 * max_fds fds, and how many fds go with it (*nfds): every fd tagged before
 * the end of what goes. Returns 0 only when an fd is due with the first
 * byte and none may go.
 */
static size_t next_message(
		const struct stream *stream, size_t len, size_t max_fds, size_t *nfds) {
	uint64_t end = stream->offset + len;
	size_t n = 0;
	while (n < max_fds && stream->fds_head + n < stream->fds_tail &&
			stream->fds[stream->fds_head + n].tag < end) {
		n++;
	}
	*nfds = n;
	/*
	 * If more fds are due, stop this message where they were tagged, so
	 * that they travel with the bytes they came with, not after them.
	 */
	size_t next = stream->fds_head + n;
	if (next < stream->fds_tail && stream->fds[next].tag < end) {
		uint64_t tag = stream->fds[next].tag;
		if (tag > stream->offset) {
			return tag - stream->offset;
		}
		return n > 0 ? 1 : 0;
	}
	return len;
}

/* Fills cmsg with one SCM_RIGHTS message of the first nfds queued fds. */
static void put_fds(
		const struct stream *stream, struct cmsghdr *cmsg, size_t nfds) {
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(nfds * sizeof(int));
	int *out = (int *)CMSG_DATA(cmsg);
	for (size_t i = 0; i < nfds; i++) {
		out[i] = stream->fds[stream->fds_head + i].fd;
	}
}

ssize_t stream_send(struct stream *stream, int fd, size_t len) {
	assert(len <= stream_len(stream));
	size_t sent = 0;
	while (sent < len) {
		size_t nfds;
		size_t chunk =
				next_message(stream, len - sent, STREAM_MAX_FDS_PER_MSG, &nfds);
		union {
			char buf[CMSG_SPACE(STREAM_MAX_FDS_PER_MSG * sizeof(int))];
			struct cmsghdr align;
		} control;
		struct iovec iov = {
				.iov_base = stream->data + stream->head,
				.iov_len = chunk,
		};
		struct msghdr msg = {
				.msg_iov = &iov,
				.msg_iovlen = 1,
		};
		if (nfds > 0) {
			memset(control.buf, 0, sizeof(control.buf));
			msg.msg_control = control.buf;
			msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
			put_fds(stream, CMSG_FIRSTHDR(&msg), nfds);
		}
		ssize_t n = transfer(fd, &msg, true);
		if (n < 0) {
			if (would_block()) {
				break;
			}
			return sent > 0 ? (ssize_t)sent : -1;
		}
		/* The kernel passed the fds with the first byte: ours can go. */
		for (size_t i = 0; i < nfds; i++) {
			close(stream->fds[stream->fds_head + i].fd);
		}
		consume(stream, n, nfds);
		sent += n;
		if ((size_t)n < chunk) {
			break;
		}
	}
	return sent;
}

ssize_t stream_give(struct stream *stream, size_t len, struct msghdr *msg) {
	assert(len <= stream_len(stream));
	size_t room = stream_iov_len(msg);
	size_t max_fds = 0;
	if (msg->msg_control && msg->msg_controllen >= CMSG_LEN(sizeof(int))) {
		max_fds = (msg->msg_controllen - CMSG_LEN(0)) / sizeof(int);
	}
	if (max_fds > STREAM_MAX_FDS_PER_MSG) {
		max_fds = STREAM_MAX_FDS_PER_MSG;
	}
	size_t nfds;
	size_t chunk =
			next_message(stream, len < room ? len : room, max_fds, &nfds);
	if (chunk == 0) {
		/* Like an empty socket: 0 would read as the end of the stream. */
		errno = EAGAIN;
		return -1;
	}
	const uint8_t *from = stream->data + stream->head;
	size_t copied = 0;
	for (size_t i = 0; i < msg->msg_iovlen && copied < chunk; i++) {
		size_t n = msg->msg_iov[i].iov_len;
		if (n > chunk - copied) {
			n = chunk - copied;
		}
		memcpy(msg->msg_iov[i].iov_base, from + copied, n);
		copied += n;
	}
	size_t controllen = 0;
	if (nfds > 0) {
		struct cmsghdr *cmsg = msg->msg_control;
		put_fds(stream, cmsg, nfds);
		controllen = CMSG_SPACE(nfds * sizeof(int));
		if (controllen > msg->msg_controllen) {
			controllen = cmsg->cmsg_len;
		}
	}
	msg->msg_controllen = controllen;
	msg->msg_flags = 0;
	/* The fds are the reader's now, as a recvmsg's would be. */
	consume(stream, chunk, nfds);
	return chunk;
}

ssize_t stream_append_msg(struct stream *stream, const struct msghdr *msg) {
	size_t len = stream_iov_len(msg);
	size_t nfds = 0;
	for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(msg); cmsg;
			cmsg = CMSG_NXTHDR((struct msghdr *)msg, cmsg)) {
		if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS) {
			nfds += (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		}
	}
	if (reserve_bytes(stream, len) < 0 || reserve_fds(stream, nfds) < 0) {
		errno = ENOMEM;
		return -1;
	}
	/*
	 * The sender closes its fds once sendmsg returns, as the kernel would
	 * have taken its own references: take ours.
	 */
	uint64_t tag = stream->offset + stream_len(stream);
	size_t taken = 0;
	for (struct cmsghdr *cmsg = CMSG_FIRSTHDR(msg); cmsg;
			cmsg = CMSG_NXTHDR((struct msghdr *)msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS) {
			continue;
		}
		size_t n = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		const int *fds = (const int *)CMSG_DATA(cmsg);
		for (size_t i = 0; i < n; i++) {
			int fd = fcntl(fds[i], F_DUPFD_CLOEXEC, 0);
			if (fd < 0) {
				int saved = errno;
				for (size_t j = 0; j < taken; j++) {
					close(stream->fds[stream->fds_tail + j].fd);
				}
				errno = saved;
				return -1;
			}
			stream->fds[stream->fds_tail + taken++] =
					(struct stream_fd){.tag = tag, .fd = fd};
		}
	}
	stream->fds_tail += taken;
	for (size_t i = 0; i < msg->msg_iovlen; i++) {
		memcpy(stream->data + stream->tail, msg->msg_iov[i].iov_base,
				msg->msg_iov[i].iov_len);
		stream->tail += msg->msg_iov[i].iov_len;
	}
	return len;
}
