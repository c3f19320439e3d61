#ifndef FAIRWAY_SCHEDULER_TRANSPORT_TRANSPORT_MEMORY_H
#define FAIRWAY_SCHEDULER_TRANSPORT_TRANSPORT_MEMORY_H

#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <wayland-server-core.h>

/*
 * The memory transport's hooks (transport.h), which the shim
 * (transport_memory_shim.c) calls from the executable's own recvmsg,
 * sendmsg and wl_event_loop_add_fd. Each returns false when fd is not a
 * gated end, and the call is the kernel's (or libwayland's).
 *
 * On a gated end, only the flags libwayland passes are emulated
 * (MSG_DONTWAIT and MSG_CMSG_CLOEXEC to read, MSG_DONTWAIT and
 * MSG_NOSIGNAL to write): any other, MSG_PEEK say, fails the call with
 * EOPNOTSUPP, logged once, rather than consume bytes the caller meant
 * only to look at.
 */
bool transport_memory_recvmsg(
		int fd, struct msghdr *msg, int flags, ssize_t *result);
bool transport_memory_sendmsg(
		int fd, const struct msghdr *msg, int flags, ssize_t *result);
/* libwayland registers its end: how the gate will run its reading. */
void transport_memory_add_fd(int fd, wl_event_loop_fd_func_t func, void *data);

#endif
