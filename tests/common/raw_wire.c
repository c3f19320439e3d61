#include "tests/common/raw_wire.h"
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* The kernel's SCM_MAX_FD. */
#define MAX_FDS 253

int raw_wire_connect(const char *path) {
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

void raw_wire_header(
		uint32_t *words, uint32_t object, uint32_t size, uint32_t opcode) {
	words[0] = object;
	words[1] = size << 16 | opcode;
}

ssize_t raw_wire_send(
		int fd, const void *data, size_t len, const int *fds, int nfds) {
	union {
		char buf[CMSG_SPACE(MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = {.iov_base = (void *)data, .iov_len = len};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	if (nfds > MAX_FDS) {
		errno = EINVAL;
		return -1;
	}
	if (nfds > 0) {
		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(cmsg), fds, nfds * sizeof(int));
	}
	return sendmsg(fd, &msg, MSG_NOSIGNAL);
}
