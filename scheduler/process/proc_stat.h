#ifndef FAIRWAY_SCHEDULER_PROCESS_PROC_STAT_H
#define FAIRWAY_SCHEDULER_PROCESS_PROC_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What /proc tells of a process or thread, read once: its parent, its
 * session and its start time. The hints pin processes by pidfd and start
 * time (hints/hints.h) and group them into applications by parent and session
 * (hints/hint_tree.h).
 */

#define PROC_ROOT "/proc"

struct proc_stat {
	char state; /* R, S, D, ..., Z for a zombie, X dead */
	pid_t ppid;
	pid_t sid;
	uint64_t start; /* clock ticks after boot */
};

/*
 * Fields of root/PID/task/TID/stat (tid == pid: the process); root is
 * PROC_ROOT, or a test's tree. False if it cannot be read or parsed.
 */
bool proc_stat_read(
		const char *root, pid_t pid, pid_t tid, struct proc_stat *stat);

/*
 * The CPU time every thread of process pid has used, user and system, in
 * clock ticks (sysconf(_SC_CLK_TCK)): false if it cannot be read.
 */
bool proc_stat_read_cpu(const char *root, pid_t pid, uint64_t *ticks);

/*
 * The uid pid runs as, if its real, effective and saved uids are all the
 * same (no setuid program half-way): false otherwise, or if unreadable.
 */
bool proc_stat_read_uid(const char *root, pid_t pid, uid_t *uid);

/* Whether the process a pidfd holds has not been reaped yet (a zombie
 * answers: read its state to tell). */
bool proc_stat_pidfd_alive(int pidfd);

#endif
