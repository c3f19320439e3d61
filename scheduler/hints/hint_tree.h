#ifndef FAIRWAY_SCHEDULER_HINTS_HINT_TREE_H
#define FAIRWAY_SCHEDULER_HINTS_HINT_TREE_H

#include "scheduler/hints/hint_threads.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * An application, for the hints: the client's own process (the root) and
 * its descendants that share its session and its uid. Most applications
 * draw elsewhere than in the process holding the socket (a browser's
 * content processes, a game's renderer child); a terminal's shell and
 * its jobs run in a session of their own, so they are not the terminal's
 * and never inherit its boost. Etsion, Tsafrir and Feitelson ("Process
 * Prioritization Using Output Production", section 6) let forked
 * processes inherit their parent's rating for the same reason.
 *
 * Descendants are found by walking children: /proc/PID/task/TID/children
 * of each tracked thread of each member, breadth first, so that a
 * grandchild whose parent is tracked is found in the same walk. Each new
 * process is pinned by a pidfd and its start time, and must be a child of
 * the member it was found under (its parent field, read while the pidfd
 * holds it), in the root's session, with the root's uid as its real,
 * effective and saved uid (peer_uids_are), as the root itself. A member
 * is checked again at every walk: one that exited, whose pid no longer
 * shows its start time, that left the session (setsid) or whose uids
 * changed leaves the application (the `leaving` hook gives back what it
 * was given first).
 *
 * Caps: HINT_TREE_PROCS_MAX processes and HINT_TREE_THREADS_MAX threads an
 * application (and HINT_THREADS_MAX a process), the root's first. Past
 * them the rest keep what they have; only tracked threads' children are
 * read. A process another application holds (its own client, connected
 * on its own) is not walked into: each process has one class.
 *
 * Nothing here changes a process: hints.c does, and decides when a walk
 * may run (its token bucket).
 */

#define HINT_TREE_PROCS_MAX 64
#define HINT_TREE_THREADS_MAX 1024

struct hint_member {
	pid_t pid;
	pid_t parent; /* the member it was found under; 0 for the root */
	int pidfd;
	uint64_t start;
	bool leaving; /* no longer of the application: dropped after the walk */
	bool claimed; /* another application's (itself or its parent) */
	bool told_untracked; /* logged that it has threads past the cap */
	struct hint_threads threads;
};

struct hint_tree {
	pid_t sid; /* the root's session, read at each walk */
	uid_t uid;
	bool single; /* the root alone: children are not walked */
	struct hint_member **members; /* [0] is the root; parents first */
	size_t count, capacity;
	/* At the last walk: processes of the application past the cap, and
	 * children in its session that are not of it (another uid), members
	 * that became so (a setuid program) included. */
	size_t untracked, outsiders;
	/* Members that left since the last walk's start, new ones it found. */
	size_t left, joined;
};

struct hint_tree_hooks {
	/* pid is another application's: neither a member nor walked into. */
	bool (*claimed)(pid_t pid, void *data);
	/* A member leaves: give back what it was given. */
	void (*leaving)(struct hint_member *member, void *data);
	/* A thread of member exited, or its tid names another thread now. */
	void (*thread_gone)(struct hints_thread *thread, void *data);
	void *data;
};

/*
 * A tree of the root alone, pinned by pidfd (taken, even on failure; -1:
 * opened here). False if the root is gone or its uids are not all uid
 * ((uid_t)-1: whatever uid, as long as it is one).
 */
bool hint_tree_init(struct hint_tree *tree, pid_t pid, int pidfd, uid_t uid);
/* Closes every pidfd; gives nothing back. */
void hint_tree_finish(struct hint_tree *tree);

static inline struct hint_member *hint_tree_root(const struct hint_tree *tree) {
	return tree->members[0];
}

/*
 * Brings the members and their threads up to date: members that no
 * longer verify leave (hooks->leaving), each member's threads are
 * scanned within the caps, and their children are walked for new
 * members, which join with no thread seen. Returns how many threads are
 * new (fresh members' included), or -1 if the root cannot be read.
 */
int hint_tree_walk(struct hint_tree *tree, const struct hint_tree_hooks *hooks);

/*
 * Whether member is still the process it was pinned as, and of the
 * application: alive, same start time, and for a descendant the root's
 * session and uids. Read again before and after each change (hints.c).
 */
bool hint_tree_member_ours(
		const struct hint_tree *tree, const struct hint_member *member);

/* The member pid, or NULL. */
struct hint_member *hint_tree_find(const struct hint_tree *tree, pid_t pid);

/* Threads tracked over every member. */
size_t hint_tree_thread_count(const struct hint_tree *tree);

/*
 * The CPU time its members have used, in clock ticks. A member that
 * exited since the last walk counts for nothing: the sum is for a rate
 * over a short window, where one process's start and end are noise.
 */
uint64_t hint_tree_cpu_ticks(const struct hint_tree *tree);

#endif
