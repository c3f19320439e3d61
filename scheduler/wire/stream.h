#ifndef FAIRWAY_SCHEDULER_WIRE_STREAM_H
#define FAIRWAY_SCHEDULER_WIRE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

/*
 * One direction of a Unix socket connection held in user space: the bytes,
 * and the file descriptors that came with them.
 *
 * On a stream socket an fd travels with the first byte of the sendmsg that
 * carried it, and recvmsg never returns data past a message that carried
 * fds. So every fd is tagged with the stream offset where the recvmsg that
 * brought it began; the message that uses it starts at or after that
 * offset. When bytes are passed on, every fd tagged before their end goes
 * with them: fds may arrive early, never after the bytes that use them,
 * and always in order.
 */

/* libwayland takes at most this many fds per recvmsg (MAX_FDS_OUT). */
#define STREAM_MAX_FDS_PER_MSG 28
/* The kernel's SCM_MAX_FD: no recvmsg can bring more. */
#define STREAM_MAX_FDS_PER_RECV 253

struct stream_fd {
	uint64_t tag;
	int fd;
};

/*
 * Who wrote the first bytes that came with credentials, on a socket that
 * passes them (process/peer.h, peer_pass_credentials).
 */
struct stream_sender {
	bool known;
	pid_t pid;
	uid_t uid;
	int pidfd; /* SCM_PIDFD where the kernel sends one, else -1 */
};

struct stream {
	uint8_t *data;
	size_t head, tail, capacity; /* bytes queued are data[head..tail) */
	uint64_t offset; /* stream offset of data[head] */
	struct stream_fd *fds;
	size_t fds_head, fds_tail, fds_capacity;
	struct stream_sender sender;
	/* Toward giving back what a burst grew (STREAM_KEEP_CAPACITY). */
	size_t high; /* the most queued since the stream last emptied */
	bool streaming; /* the last read filled all it asked for */
	unsigned quiet; /* times in a row it emptied having held little */
};

/*
 * A buffer grown past this by a burst is given back once the stream has
 * emptied STREAM_QUIET_EMPTIES times in a row without holding more than
 * a quarter of it: a client holds only what it needs queued, and one that
 * bursts all the time keeps its buffer rather than regrow it each time.
 */
#define STREAM_KEEP_CAPACITY (64 * 1024)
#define STREAM_QUIET_EMPTIES 64

void stream_init(struct stream *stream);
/* Frees the buffers and closes the fds still queued. */
void stream_finish(struct stream *stream);

static inline size_t stream_len(const struct stream *stream) {
	return stream->tail - stream->head;
}

static inline const uint8_t *stream_data(const struct stream *stream) {
	return stream->data + stream->head;
}

static inline size_t stream_fd_count(const struct stream *stream) {
	return stream->fds_tail - stream->fds_head;
}

/*
 * Reads what the socket holds, up to max bytes, in as many recvmsg calls as
 * it takes, stopping at a short read, and before any further recvmsg once
 * max_fds fds came: one recvmsg brings the fds of one sendmsg, so a read
 * takes at most max_fds + 27 fds from a client that keeps to libwayland's
 * 28 a message (more in one message ends that client anyway). Returns the
 * bytes read; 0 with *eof set when the peer hung up (an end right after
 * data shows at the next call); -1 with errno on an error other than
 * EAGAIN. *fds_in_one_read reports the largest number of fds that came in
 * a single recvmsg, so that the caller can refuse floods that libwayland
 * could not have taken either; it is STREAM_MAX_FDS_PER_RECV + 1 when the
 * kernel had to drop fds (MSG_CTRUNC).
 */
ssize_t stream_recv(struct stream *stream, int fd, size_t max, size_t max_fds,
		int *eof, int *fds_in_one_read);

/*
 * Sends the first len bytes of the stream with their fds, at most
 * STREAM_MAX_FDS_PER_MSG per sendmsg. Returns the bytes sent, which may be
 * fewer than len when the socket is full (0: nothing could be sent), or -1
 * with errno on an error.
 */
ssize_t stream_send(struct stream *stream, int fd, size_t len);

/* The bytes a msghdr's iovecs hold (or have room for). */
static inline size_t stream_iov_len(const struct msghdr *msg) {
	size_t len = 0;
	for (size_t i = 0; i < msg->msg_iovlen; i++) {
		len += msg->msg_iov[i].iov_len;
	}
	return len;
}

/*
 * Moves up to len bytes, with their fds, into msg as a recvmsg of a socket
 * would fill it (iovecs, one SCM_RIGHTS message, msg_controllen and
 * msg_flags): a reader that is handed the stream in memory. The fds are
 * the reader's from then on. Returns the bytes given, or -1 with EAGAIN
 * when an fd due with the first byte finds no room in msg's control.
 */
ssize_t stream_give(struct stream *stream, size_t len, struct msghdr *msg);

/*
 * Appends what a sendmsg of msg would send: its bytes, and dups of its
 * SCM_RIGHTS fds, which travel with its first byte. Returns the bytes, or
 * -1 with errno with the stream as it was.
 */
ssize_t stream_append_msg(struct stream *stream, const struct msghdr *msg);

/* Appends bytes without fds (tests and error replies). */
int stream_append(struct stream *stream, const void *data, size_t len);

#endif
