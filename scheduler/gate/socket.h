#ifndef FAIRWAY_SCHEDULER_GATE_SOCKET_H
#define FAIRWAY_SCHEDULER_GATE_SOCKET_H

#include <stdbool.h>
#include <sys/un.h>

/*
 * The Wayland socket in $XDG_RUNTIME_DIR, owned by fairway rather than by
 * libwayland, so that every accepted connection goes through the gate.
 * Named and locked the way libwayland does it, so clients and other
 * compositors see nothing different.
 */
struct gate_socket {
	int fd;
	int lock_fd;
	char name[64];
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char lock_path[sizeof(((struct sockaddr_un *)0)->sun_path) + 8];
};

/* name NULL picks the first free wayland-N. Returns false with a log. */
bool gate_socket_open(struct gate_socket *socket, const char *name);
/* Unlinks and closes; harmless on a socket that failed to open. */
void gate_socket_close(struct gate_socket *socket);

#endif
