#ifndef FAIRWAY_SCHEDULER_HINTS_HINTS_INTERNAL_H
#define FAIRWAY_SCHEDULER_HINTS_HINTS_INTERNAL_H

/*
 * The hints' own pieces, shared by the files that make them up:
 *
 * - hints.c: the whole, an application's life, its class and its walks;
 * - hints_member.c: one process's threads given a class, saved first and
 *   given back;
 * - hints_app_group.c: the application's task group;
 * - hints_replay.c: what a crashed fairway left in its journal.
 */

#include "scheduler/hints/hints.h"

/* What a process's threads get in class: its own target, if it has one. */
const struct hints_target *hints_member_target(
		const struct hints_app *app, enum ratings_class class);

/*
 * Saves and journals member's threads that are about to be changed for
 * the first time (the caller syncs the journal before any change). False
 * if the journal cannot take them.
 */
bool hints_member_save(struct hints_app *app, struct hint_member *member);

/*
 * Gives member's threads class's attributes (restore: their own back);
 * fresh_only: only threads that turned up since the last time. A
 * descendant that is no longer of the application, checked before and
 * after, is given back what it had and leaves (hints_member_leave).
 */
void hints_member_apply(struct hints_app *app, struct hint_member *member,
		enum ratings_class class, bool restore, bool fresh_only);

/* member leaves the application: what it was given goes back where it is
 * still the same process, and its journal entries go. */
void hints_member_leave(struct hints_app *app, struct hint_member *member);

/* A thread that is gone: nothing left to restore, nor to journal. */
void hints_member_forget_thread(struct hints_thread *thread, void *data);
/* Every thread of member, as gone. */
void hints_member_forget(struct hints_app *app, struct hint_member *member);

/* The pid and tid are still member's and the thread's (thread NULL: the
 * process alone). */
bool hints_member_verify(
		const struct hint_member *member, const struct hints_thread *thread);

/*
 * The application's group after its class or its processes changed (full:
 * its class did, so it is located and checked again now; otherwise only
 * when due).
 */
void hints_app_group_update(struct hints_app *app, int64_t now, bool full);
/*
 * Gives the group its value back. leaving: the application goes, and a
 * restore the kernel puts off (its limit on autogroup writes) is kept and
 * tried again by hints_app_group_retry_orphans, never waited for here.
 */
void hints_app_group_restore(struct hints_app *app, bool leaving);
/* Restores put off when their applications went; wait: through the
 * kernel's limit (fairway stops). */
void hints_app_group_retry_orphans(struct hints *hints, bool wait);
/*
 * Gives back what a journal's group line saved, counted in report; false
 * if it did not.
 */
bool hints_app_group_replay(const struct hint_group_env *env,
		const struct hint_journal_entry *entry,
		struct hint_journal_report *report);

#endif
