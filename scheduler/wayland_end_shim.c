#include "scheduler/wayland_end.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * libwayland-server calls recvmsg, sendmsg and wl_event_loop_add_fd through
 * its PLT, and an executable's own definitions come first in the dynamic
 * linker's search order (they are exported: see scheduler/meson.build). So
 * these are the ones libwayland calls. Each hands libwayland's end of a
 * gated connection to the gate (wayland_end.h) and passes every other call
 * on, unchanged, to the next definition: libc's, or a sanitizer's.
 */

typedef ssize_t (*recvmsg_func)(int, struct msghdr *, int);
typedef ssize_t (*sendmsg_func)(int, const struct msghdr *, int);
typedef struct wl_event_source *(*add_fd_func)(
		struct wl_event_loop *, int, uint32_t, wl_event_loop_fd_func_t, void *);

static recvmsg_func next_recvmsg;
static sendmsg_func next_sendmsg;
static add_fd_func next_add_fd;

static void *next(const char *name) {
	void *func = dlsym(RTLD_NEXT, name);
	if (!func) {
		fprintf(stderr, "fairway: no %s after the gate's own\n", name);
		abort();
	}
	return func;
}

/*
 * Before main, so that no thread races to fill them in; a library's
 * constructor that runs earlier still finds them, through the checks
 * below.
 */
__attribute__((constructor)) static void find_next(void) {
	next_recvmsg = (recvmsg_func)next("recvmsg");
	next_sendmsg = (sendmsg_func)next("sendmsg");
	next_add_fd = (add_fd_func)next("wl_event_loop_add_fd");
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags) {
	ssize_t result;
	if (wayland_end_recvmsg(fd, msg, &result)) {
		return result;
	}
	if (!next_recvmsg) {
		find_next();
	}
	return next_recvmsg(fd, msg, flags);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
	ssize_t result;
	if (wayland_end_sendmsg(fd, msg, &result)) {
		return result;
	}
	if (!next_sendmsg) {
		find_next();
	}
	return next_sendmsg(fd, msg, flags);
}

struct wl_event_source *wl_event_loop_add_fd(struct wl_event_loop *loop, int fd,
		uint32_t mask, wl_event_loop_fd_func_t func, void *data) {
	wayland_end_add_fd(fd, func, data);
	if (!next_add_fd) {
		find_next();
	}
	return next_add_fd(loop, fd, mask, func, data);
}
