#include "scheduler/process/peer.h"
#include "scheduler/log.h"
#include "scheduler/process/proc_stat.h"
#include "scheduler/process/unix_peers.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Linux 6.5; newer than bookworm's headers. */
#ifndef SO_PASSPIDFD
#define SO_PASSPIDFD 76
#endif
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

void peer_init(struct peer *peer) {
	*peer = (struct peer){.pidfd = -1};
}

void peer_finish(struct peer *peer) {
	if (peer->pidfd >= 0) {
		close(peer->pidfd);
	}
	peer_init(peer);
}

bool peer_start_time(pid_t pid, pid_t tid, uint64_t *start) {
	struct proc_stat stat;
	if (!proc_stat_read(PROC_ROOT, pid, tid, &stat)) {
		return false;
	}
	*start = stat.start;
	return true;
}

uint64_t peer_now_ticks(void) {
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	long hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0) {
		hz = 100;
	}
	return (uint64_t)ts.tv_sec * (uint64_t)hz +
			(uint64_t)ts.tv_nsec / (1000000000u / (uint64_t)hz);
}

bool peer_uids_are(pid_t pid, uid_t uid) {
	uid_t all;
	return proc_stat_read_uid(PROC_ROOT, pid, &all) &&
			(uid == (uid_t)-1 || all == uid);
}

bool peer_pin_pid(struct peer *peer, pid_t pid, uid_t uid, int pidfd,
		uint64_t seen_ticks) {
	peer_finish(peer);
	if (pid <= 0) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return false;
	}
	if (pidfd < 0) {
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	}
	const char *why = NULL;
	uint64_t start = 0;
	if (pidfd < 0) {
		why = "gone";
	} else if (!peer_start_time(pid, pid, &start)) {
		why = "gone";
	} else if (start > seen_ticks) {
		/* The pid was recycled: a new process, not the one that wrote. */
		why = "started after it connected";
	} else if (!peer_uids_are(pid, uid)) {
		why = "its real, effective and saved uids are not all the uid it "
			  "connected with";
	} else if (!proc_stat_pidfd_alive(pidfd)) {
		/* Checked last: what was read above was this process's. */
		why = "gone";
	}
	if (why != NULL) {
		sched_log(SCHED_LOG_DEBUG, "peer pid %d (uid %u) not pinned: %s",
				(int)pid, (unsigned)uid, why);
		if (pidfd >= 0) {
			close(pidfd);
		}
		return false;
	}
	*peer = (struct peer){
			.pid = pid,
			.uid = uid,
			.pidfd = pidfd,
			.start = start,
	};
	return true;
}

bool peer_pin_socket(struct peer *peer, int fd, uint64_t accepted_ticks) {
	peer_finish(peer);
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
		return false;
	}
	int pidfd = -1;
	len = sizeof(pidfd);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) != 0) {
		if (errno != ENOPROTOOPT) {
			/* The kernel has it, and the peer is gone. */
			sched_log(SCHED_LOG_DEBUG, "peer pid %d: SO_PEERPIDFD: %s",
					(int)cred.pid, strerror(errno));
			return false;
		}
		pidfd = -1; /* before 6.5: pidfd_open and the start time */
	}
	return peer_pin_pid(peer, cred.pid, cred.uid, pidfd, accepted_ticks);
}

bool peer_pin_x_client(
		struct peer *peer, pid_t pid, const struct peer *xwayland) {
	peer_finish(peer);
	const char *why = NULL;
	int pidfd = -1;
	uint64_t start = 0;
	if (xwayland->pidfd < 0) {
		why = "Xwayland itself is not pinned";
	} else if (pid <= 0 || pid == getpid() || pid == xwayland->pid) {
		why = "not an X client's pid";
	} else if ((pidfd = (int)syscall(SYS_pidfd_open, pid, 0)) < 0 ||
			!peer_start_time(pid, pid, &start)) {
		why = "gone";
	} else if (!peer_uids_are(pid, xwayland->uid)) {
		why = "its real, effective and saved uids are not all Xwayland's";
	} else {
		switch (unix_peers_connected(pid, xwayland->pid)) {
		case UNIX_PEERS_YES:
			break;
		case UNIX_PEERS_NO:
			why = "it holds no connection to Xwayland";
			break;
		case UNIX_PEERS_UNKNOWN:
			why = "its connections cannot be read";
			break;
		}
	}
	/* Checked last: what was read above was theirs. */
	if (why == NULL &&
			(!proc_stat_pidfd_alive(pidfd) ||
					!proc_stat_pidfd_alive(xwayland->pidfd))) {
		why = "gone";
	}
	if (why != NULL) {
		sched_log(SCHED_LOG_INFO,
				"X client pid %d (Xwayland pid %d, uid %u) not pinned: %s",
				(int)pid, (int)xwayland->pid, (unsigned)xwayland->uid, why);
		if (pidfd >= 0) {
			close(pidfd);
		}
		return false;
	}
	*peer = (struct peer){
			.pid = pid,
			.uid = xwayland->uid,
			.pidfd = pidfd,
			.start = start,
	};
	return true;
}

void peer_pass_credentials(int fd, bool on) {
	int value = on ? 1 : 0;
	setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &value, sizeof(value));
	/* ENOPROTOOPT before 6.5: SCM_CREDENTIALS' pid is all there is. */
	setsockopt(fd, SOL_SOCKET, SO_PASSPIDFD, &value, sizeof(value));
}

int peer_dup_pidfd(const struct peer *peer) {
	if (peer->pidfd < 0) {
		return -1;
	}
	return fcntl(peer->pidfd, F_DUPFD_CLOEXEC, 0);
}
