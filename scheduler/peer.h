#ifndef FAIRWAY_SCHEDULER_PEER_H
#define FAIRWAY_SCHEDULER_PEER_H

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
 * exec'd a setuid program is not hinted (hints.h checks again before each
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
