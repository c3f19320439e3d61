#ifndef FAIRWAY_SCHEDULER_PROCESS_UNIX_PEERS_H
#define FAIRWAY_SCHEDULER_PROCESS_UNIX_PEERS_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Whether two processes hold the two ends of one unix socket connection,
 * as the kernel knows it: the sockets each holds are the "socket:[INODE]"
 * entries of its fd table (/proc/PID/fd), and sock_diag
 * (NETLINK_SOCK_DIAG, UDIAG_SHOW_PEER, as ss -x reads them) names the
 * peer of every unix socket of fairway's network namespace. Nothing a
 * process says about itself enters into it.
 *
 * Reading another process's fd table needs what ptrace's read mode needs:
 * the same uid (and no capability it lacks) or CAP_SYS_PTRACE. The
 * answer is about the processes that held those pids while the tables
 * were read: the caller pins them (pidfds) and checks them alive after.
 */

enum unix_peers_answer {
	UNIX_PEERS_UNKNOWN = -1, /* a table or the kernel's list unreadable */
	UNIX_PEERS_NO = 0,
	UNIX_PEERS_YES = 1,
};

/*
 * Whether a socket that a holds is connected to one that b holds. Logs
 * at debug why it could not tell.
 */
enum unix_peers_answer unix_peers_connected(pid_t a, pid_t b);

#endif
