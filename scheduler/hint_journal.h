#ifndef FAIRWAY_SCHEDULER_HINT_JOURNAL_H
#define FAIRWAY_SCHEDULER_HINT_JOURNAL_H

#include "scheduler/hint_attr.h"
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

struct hint_journal_entry {
	pid_t pid, tid;
	uint64_t start; /* the thread's start time, clock ticks after boot */
	struct hint_attr attr;
};

struct hint_journal {
	int dir_fd; /* the state directory */
	char name[64], tmp_name[72];
	struct hint_journal_entry *entries;
	size_t count, capacity;
	bool dirty;
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

typedef void (*hint_journal_restore_func)(
		const struct hint_journal_entry *entry, void *data);

/*
 * Calls restore for every entry of every journal in dir whose writer is no
 * longer running, then deletes those journals. Files fairway did not
 * write (state_dir_file_trusted) are left alone, with a log line. Returns
 * how many entries, or -1 if dir cannot be read or is refused.
 */
int hint_journal_replay(
		const char *dir, hint_journal_restore_func restore, void *data);

#endif
