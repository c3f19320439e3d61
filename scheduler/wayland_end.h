#ifndef FAIRWAY_SCHEDULER_WAYLAND_END_H
#define FAIRWAY_SCHEDULER_WAYLAND_END_H

#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <wayland-server-core.h>

/*
 * libwayland's end of a gated connection, served from memory.
 *
 * libwayland gets a socket for each gated client (a socketpair end: it
 * needs a real socket to ask for credentials and to poll), but nothing
 * crosses that socketpair. libwayland's recvmsg and sendmsg on it are
 * answered from the gate's queues instead, and the gate runs libwayland's
 * read callback itself when it gives the client its turn. Through the
 * kernel, each batch would cost a sendmsg and a recvmsg more each way and
 * an epoll wakeup: the round trip of a client that waits on each answer
 * took 8 syscalls where libwayland alone takes 3. Served from memory it
 * takes the same 3.
 *
 * wayland_end_shim.c routes libwayland's calls here.
 */

struct gate_connection;

/* fd, which is about to go to wl_client_create, is conn's libwayland end. */
bool wayland_end_attach(int fd, struct gate_connection *conn);
void wayland_end_detach(int fd);

/*
 * The shim's hooks. Each returns false when fd is not a gated end, and the
 * call is the kernel's.
 */
bool wayland_end_recvmsg(int fd, struct msghdr *msg, ssize_t *result);
bool wayland_end_sendmsg(int fd, const struct msghdr *msg, ssize_t *result);
/* libwayland registers its end: how the gate will call its reading. */
void wayland_end_add_fd(int fd, wl_event_loop_fd_func_t func, void *data);

#endif
