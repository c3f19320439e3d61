#ifndef FAIRWAY_SCHEDULER_HINTS_HINT_JOURNAL_H
#define FAIRWAY_SCHEDULER_HINTS_HINT_JOURNAL_H

#include "scheduler/hints/hint_attr.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The journal of the attributes fairway changed, so that a crashed fairway
 * can still give every thread back what it had. Each running fairway keeps
 * its own file, $XDG_RUNTIME_DIR/fairway-hints-PID.journal, naming itself
 * (pid and start time) on its first line and then one thread per line with
 * the thread's original attributes. An entry is written, and the file
 * renamed into place, before the thread is first changed; it goes once the
 * thread is restored or gone. A journal whose writer is no longer running
 * is replayed at the next start and by `fairway --restore-hints`, if it
 * is fairway's own: a regular file of the effective uid with mode 0600 in
 * a directory no one else may write (state_dir.h). What it asks for is
 * checked again before it is applied (hints.c).
 */

enum hint_journal_kind {
	HINT_JOURNAL_THREAD, /* a thread's attributes */
	HINT_JOURNAL_AUTOGROUP, /* an autogroup's nice */
	HINT_JOURNAL_CGROUP, /* a cgroup's cpu weight and idle */
};

#define HINT_JOURNAL_PATH_MAX 512

/*
 * A task group's original value (hint_group.h), kept in a file of its own
 * beside the threads' (fairway-groups-PID.journal, the same header), which
 * older fairways neither read nor delete: "autogroup PID START SID ID
 * NICE", through a process of the session (pid and start), the
 * autogroup's id checked before it is written; "cgroup VERSION INODE
 * WEIGHT IDLE PATH", the path under the controller's mount and its
 * directory's inode checked likewise.
 */
struct hint_journal_group {
	pid_t sid; /* autogroup: its session */
	uint64_t id; /* the autogroup's id, or the cgroup directory's inode */
	int version; /* cgroups: 1 or 2 */
	int32_t nice; /* autogroup */
	uint32_t weight; /* cgroups: cpu.weight (2) or cpu.shares (1) */
	int idle; /* cgroups: cpu.idle, -1 without one */
	char path[HINT_JOURNAL_PATH_MAX]; /* cgroups */
};

struct hint_journal_entry {
	enum hint_journal_kind kind;
	pid_t pid, tid; /* an autogroup's: a process of it, and its pid again */
	uint64_t start; /* the thread's start time, clock ticks after boot */
	struct hint_attr attr; /* a thread's */
	/* A group's, for the restore function; NULL for a thread. */
	const struct hint_journal_group *group;
};

struct hint_journal_saved_group {
	struct hint_journal_entry entry; /* its kind, and an autogroup's process */
	struct hint_journal_group group;
};

/* One of a journal's files, written aside and renamed into place. */
struct hint_journal_file {
	char name[64], tmp_name[72];
	bool dirty;
};

struct hint_journal {
	int dir_fd; /* the state directory */
	struct hint_journal_file threads_file, groups_file;
	struct hint_journal_entry *entries;
	size_t count, capacity;
	/* Groups, kept apart: few, and each with a path. */
	struct hint_journal_saved_group *groups;
	size_t group_count, group_capacity;
};

/*
 * Journal of this process in dir, a state directory (state_dir_open's
 * checks); nothing is written until needed. NULL if dir is refused.
 */
struct hint_journal *hint_journal_create(const char *dir);
/* Removes the file: call only once every entry has been restored. */
void hint_journal_destroy(struct hint_journal *journal);

bool hint_journal_add(
		struct hint_journal *journal, const struct hint_journal_entry *entry);
void hint_journal_remove(struct hint_journal *journal, pid_t tid);
/* Writes the entries if they changed; false if they could not be. */
bool hint_journal_sync(struct hint_journal *journal);

/*
 * A group's original value (kind HINT_JOURNAL_AUTOGROUP or _CGROUP, with
 * pid and start for an autogroup), until hint_journal_remove_group with
 * the same kind and id.
 */
bool hint_journal_add_group(struct hint_journal *journal,
		const struct hint_journal_entry *entry,
		const struct hint_journal_group *group);
void hint_journal_remove_group(
		struct hint_journal *journal, enum hint_journal_kind kind, uint64_t id);

typedef void (*hint_journal_restore_func)(
		const struct hint_journal_entry *entry, void *data);

/*
 * What a replay did, for `fairway --restore-hints`: its entries by
 * outcome (the restore function counts them), and the journals it left
 * unread.
 */
struct hint_journal_report {
	int restored; /* given back, or found as they were saved */
	int gone; /* the thread or group is no more: nothing to give back */
	int failed; /* the kernel refused the restore, or it could not be read */
	int refused; /* asking for what fairway never saved */
	/* Not fairway's own (a symlink, another owner, a mode...), or not
	 * readable: left where they are, each with an error line. */
	int journals_skipped;
	int journals_live; /* a running fairway's: left to it */
};

/*
 * Calls restore for every entry of every journal in dir whose writer is no
 * longer running, then deletes those journals. Files fairway did not
 * write (state_dir_file_trusted, or a symbolic link) are left alone, with
 * an error line. Returns how many entries, or -1 if dir cannot be read or
 * is refused. report, if not NULL, counts the journals left unread.
 */
int hint_journal_replay(
		const char *dir, hint_journal_restore_func restore, void *data);
int hint_journal_replay_report(const char *dir,
		hint_journal_restore_func restore, void *data,
		struct hint_journal_report *report);

#endif
