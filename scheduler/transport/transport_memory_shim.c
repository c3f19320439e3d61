#include "scheduler/transport/transport_memory.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * libwayland-server calls recvmsg, sendmsg and wl_event_loop_add_fd through
 * its PLT, and an executable's own definitions come first in the dynamic
 * linker's search order (they are exported: see scheduler/meson.build). So
 * these are the ones libwayland calls. Each hands libwayland's end of a
 * gated connection to the memory transport (transport_memory.h) and
 * passes every other call on, unchanged, to the next definition: libc's,
 * or a sanitizer's.
 *
 * Where libwayland does not come here (a compositor loaded with dlopen, a
 * libwayland linked -Bsymbolic-functions or statically, a 32-bit build
 * whose recvmsg is __recvmsg64), gate_create finds out before any client
 * connects and uses the socketpair transport (gate/transport_choose.h).
 */

typedef ssize_t (*recvmsg_func)(int, struct msghdr *, int);
typedef ssize_t (*sendmsg_func)(int, const struct msghdr *, int);
typedef struct wl_event_source *(*add_fd_func)(
		struct wl_event_loop *, int, uint32_t, wl_event_loop_fd_func_t, void *);

static recvmsg_func next_recvmsg;
static sendmsg_func next_sendmsg;
static add_fd_func next_add_fd;

/*
 * Before main, so that no thread races to fill them in; a library's
 * constructor that runs earlier still finds them, through the checks
 * below. A program without libwayland-server has no wl_event_loop_add_fd
 * to find, and never calls it.
 */
__attribute__((constructor)) static void find_next(void) {
	next_recvmsg = (recvmsg_func)dlsym(RTLD_NEXT, "recvmsg");
	next_sendmsg = (sendmsg_func)dlsym(RTLD_NEXT, "sendmsg");
	next_add_fd = (add_fd_func)dlsym(RTLD_NEXT, "wl_event_loop_add_fd");
}

static void *next(void **func, const char *name) {
	if (!*func) {
		find_next();
	}
	if (!*func) {
		fprintf(stderr, "fairway: no %s after the gate's own\n", name);
		abort();
	}
	return *func;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags) {
	ssize_t result;
	if (transport_memory_recvmsg(fd, msg, flags, &result)) {
		return result;
	}
	recvmsg_func func = next((void **)&next_recvmsg, "recvmsg");
	return func(fd, msg, flags);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
	ssize_t result;
	if (transport_memory_sendmsg(fd, msg, flags, &result)) {
		return result;
	}
	sendmsg_func func = next((void **)&next_sendmsg, "sendmsg");
	return func(fd, msg, flags);
}

struct wl_event_source *wl_event_loop_add_fd(struct wl_event_loop *loop, int fd,
		uint32_t mask, wl_event_loop_fd_func_t func, void *data) {
	transport_memory_add_fd(fd, func, data);
	add_fd_func add_fd = next((void **)&next_add_fd, "wl_event_loop_add_fd");
	return add_fd(loop, fd, mask, func, data);
}
