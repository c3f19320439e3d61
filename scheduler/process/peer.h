#ifndef FAIRWAY_SCHEDULER_PROCESS_PEER_H
#define FAIRWAY_SCHEDULER_PROCESS_PEER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The process at the other end of a client's socket, pinned once and held
 * by a pidfd, so that the hints fairway gives that client reach that
 * process and no other. A pid alone names whichever process holds the
 * number when it is read: after the client exits, another user's process,
 * or, after the client execs a setuid program, a process of another uid.
 *
 * A peer is pinned when fairway accepts the connection: SO_PEERPIDFD (Linux
 * 6.5) names the process that connected; before it (ENOPROTOOPT), the pid
 * of SO_PEERCRED is opened with pidfd_open and must have started no later
 * than the accept. Either way the process's real, effective and saved uids
 * must all be the uid that connected, as rtkit requires: a client that
 * exec'd a setuid program is not hinted (hints/hints.h checks again before each
 * change).
 *
 * A socket fairway made itself (Xwayland's socketpair) names fairway in
 * SO_PEERCRED. Its peer is pinned from the credentials the kernel attaches
 * to the first bytes it receives instead (SO_PASSCRED, SCM_CREDENTIALS,
 * and SO_PASSPIDFD's SCM_PIDFD where the kernel has it): the process that
 * wrote them, which is the one holding the other end.
 */

struct peer {
	pid_t pid; /* 0: not pinned (unknown, gone, or refused) */
	uid_t uid;
	int pidfd; /* -1 unless pinned */
	uint64_t start; /* its start time, clock ticks after boot */
};

void peer_init(struct peer *peer);
/* Closes the pidfd; the peer is not pinned after. */
void peer_finish(struct peer *peer);

/* Start time of a thread (tid == pid: the process), from /proc. */
bool peer_start_time(pid_t pid, pid_t tid, uint64_t *start);

/* Now, in the units of /proc start times (clock ticks after boot). */
uint64_t peer_now_ticks(void);

/*
 * Pins the process that connected fd, which fairway accepted at
 * accepted_ticks. False, with the peer not pinned and the reason logged
 * at debug, when it cannot be.
 */
bool peer_pin_socket(struct peer *peer, int fd, uint64_t accepted_ticks);

/*
 * Pins pid as it was at seen_ticks, through pidfd if the kernel gave one
 * (taken, even on failure), else pidfd_open: it must have started by then
 * and have uid as its real, effective and saved uid.
 */
bool peer_pin_pid(struct peer *peer, pid_t pid, uid_t uid, int pidfd,
		uint64_t seen_ticks);

/*
 * Pins the X client that Xwayland (xwayland, pinned) reports as pid, at
 * once, when fairway learns of it. X-Resource's pid is the one the X
 * client's socket peer had when it connected: by now that process may
 * have handed its connection to a child and exited, and the number gone
 * to anyone. So the process that has the pid now is pinned (pidfd_open)
 * and taken for the X client only if its real, effective and saved uids
 * are all Xwayland's, and it holds a socket whose peer Xwayland holds
 * (unix_peers.h): a client of Xwayland's, or a process one handed its
 * connection to. Both are read while the pidfd shows it alive. From then
 * on the pidfd names it; its pid is never looked up again. False, with the
 * reason logged ("X client pid N not pinned: ..."), when it is not.
 */
bool peer_pin_x_client(
		struct peer *peer, pid_t pid, const struct peer *xwayland);

/*
 * Asks the kernel to attach the writer's credentials to what fd receives,
 * for peer_pin_pid; `on` false stops it once they are known.
 */
void peer_pass_credentials(int fd, bool on);

/* Whether pid's real, effective and saved uids are all uid ((uid_t)-1:
 * all the same). */
bool peer_uids_are(pid_t pid, uid_t uid);

/* A pidfd of the pinned process for the caller to keep, or -1. */
int peer_dup_pidfd(const struct peer *peer);

#endif
