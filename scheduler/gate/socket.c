#include "scheduler/gate/socket.h"
#include "scheduler/log.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* libwayland's own search range for wl_display_add_socket_auto. */
#define AUTO_SOCKETS 33

static bool take_lock(struct gate_socket *sock) {
	sock->lock_fd = open(sock->lock_path, O_CREAT | O_CLOEXEC | O_RDWR,
			S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP);
	if (sock->lock_fd < 0) {
		sched_log(SCHED_LOG_ERROR, "cannot open %s: %s", sock->lock_path,
				strerror(errno));
		return false;
	}
	if (flock(sock->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		close(sock->lock_fd);
		sock->lock_fd = -1;
		return false;
	}
	/* We hold the lock, so a socket file left there is stale. */
	struct stat st;
	if (lstat(sock->path, &st) == 0 && S_ISSOCK(st.st_mode)) {
		unlink(sock->path);
	}
	return true;
}

static bool set_paths(
		struct gate_socket *sock, const char *runtime_dir, const char *name) {
	int n = snprintf(
			sock->path, sizeof(sock->path), "%s/%s", runtime_dir, name);
	if (n < 0 || (size_t)n >= sizeof(sock->path)) {
		sched_log(SCHED_LOG_ERROR, "socket path too long: %s/%s", runtime_dir,
				name);
		return false;
	}
	snprintf(sock->lock_path, sizeof(sock->lock_path), "%s.lock", sock->path);
	snprintf(sock->name, sizeof(sock->name), "%s", name);
	return true;
}

static bool bind_and_listen(struct gate_socket *sock) {
	sock->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (sock->fd < 0) {
		sched_log(SCHED_LOG_ERROR, "socket: %s", strerror(errno));
		return false;
	}
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	memcpy(addr.sun_path, sock->path, sizeof(addr.sun_path));
	if (bind(sock->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
			listen(sock->fd, 128) < 0) {
		sched_log(SCHED_LOG_ERROR, "cannot listen on %s: %s", sock->path,
				strerror(errno));
		close(sock->fd);
		sock->fd = -1;
		unlink(sock->path);
		return false;
	}
	return true;
}

bool gate_socket_open(struct gate_socket *sock, const char *name) {
	memset(sock, 0, sizeof(*sock));
	sock->fd = sock->lock_fd = -1;
	const char *runtime_dir = getenv("XDG_RUNTIME_DIR");
	if (!runtime_dir || runtime_dir[0] != '/') {
		sched_log(SCHED_LOG_ERROR, "XDG_RUNTIME_DIR is not set to a path");
		return false;
	}
	if (name) {
		if (!set_paths(sock, runtime_dir, name)) {
			return false;
		}
		if (!take_lock(sock)) {
			sched_log(SCHED_LOG_ERROR, "socket %s is in use", name);
			return false;
		}
		if (!bind_and_listen(sock)) {
			goto error_lock;
		}
		return true;
	}
	for (int i = 0; i < AUTO_SOCKETS; i++) {
		char auto_name[32];
		snprintf(auto_name, sizeof(auto_name), "wayland-%d", i);
		if (!set_paths(sock, runtime_dir, auto_name)) {
			return false;
		}
		if (!take_lock(sock)) {
			continue;
		}
		if (bind_and_listen(sock)) {
			return true;
		}
		goto error_lock;
	}
	sched_log(SCHED_LOG_ERROR, "no free wayland-N socket in %s", runtime_dir);
	return false;

error_lock:
	unlink(sock->lock_path);
	close(sock->lock_fd);
	sock->lock_fd = -1;
	return false;
}

void gate_socket_close(struct gate_socket *sock) {
	if (sock->fd >= 0) {
		unlink(sock->path);
		close(sock->fd);
		sock->fd = -1;
	}
	if (sock->lock_fd >= 0) {
		unlink(sock->lock_path);
		close(sock->lock_fd);
		sock->lock_fd = -1;
	}
}
