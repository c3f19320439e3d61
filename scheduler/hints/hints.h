#ifndef FAIRWAY_SCHEDULER_HINTS_HINTS_H
#define FAIRWAY_SCHEDULER_HINTS_HINTS_H

#include "scheduler/hints/hint_attr.h"
#include "scheduler/hints/hint_group.h"
#include "scheduler/hints/hint_journal.h"
#include "scheduler/hints/hint_threads.h"
#include "scheduler/hints/hint_tree.h"
#include "scheduler/hints/hints_state.h"
#include "scheduler/ratings/ratings_client.h"
#include "scheduler/token_bucket.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-util.h>

/*
 * Kernel hints: each client's class (ratings/ratings_client.h) becomes
 * scheduling attributes on every thread of its application, through
 * sched_setattr.
 *
 * - An application is the client's process and its descendants in its
 *   session and of its uid (hint_tree.h), or, narrowed by a rule
 *   (hints_app_set_single), the client's process alone. Only
 *   applications the compositor hands in (connected clients and their X
 *   clients) are touched, each process through a pidfd: the one
 *   SO_PEERPIDFD gave for the client's own, or pidfd_open plus a
 *   start-time check. Before and after each change the pidfd must show
 *   the process alive and /proc the same start times for it and the
 *   thread; a change whose process went away meanwhile is undone on its
 *   thread, never on a tid that is someone else's now.
 * - SCHED_FLAG_RESET_ON_FORK is always set: children never inherit a
 *   boost; they get the application's class when a walk finds them.
 * - Each thread's attributes are saved (and journalled, hint_journal.h)
 *   before its first change and restored exactly when its process leaves
 *   the application or the compositor, when fairway stops, or at the
 *   next start after a crash.
 * - Class changes are rate-limited per application: a bucket of
 *   HINTS_DEFAULT_BURST changes, refilled by one every
 *   HINTS_DEFAULT_REFILL_MS (sustained 0.5 changes a second, as rtkit's 25
 *   actions per 20 s allows about 1). A change that finds the bucket empty
 *   waits for the next update. Processes and threads that turned up since
 *   are looked for at most every HINTS_DEFAULT_WALK_MS, only while the
 *   bucket holds a token, and hinting them takes one. Restores are never
 *   held back.
 * - At most HINT_THREADS_MAX threads a process, and HINT_TREE_PROCS_MAX
 *   processes and HINT_TREE_THREADS_MAX threads an application, are
 *   tracked; the rest keep what they have.
 *
 * Privilege, detected at start and logged: lowering nice needs
 * CAP_SYS_NICE or the client's own RLIMIT_NICE, and fairway never raises
 * nice where it could not lower it back. Custom slices, SCHED_BATCH and
 * uclamp need none, nor does entering SCHED_IDLE; leaving it needs what
 * lowering nice does, so fairway uses it only where it may (hints.c).
 * Clearing SCHED_FLAG_RESET_ON_FORK needs CAP_SYS_NICE, so without it a
 * restored thread keeps that flag (its children start from the defaults,
 * which is harmless). The kernel also refuses to change a process whose
 * capabilities are not a subset of fairway's (a setuid or
 * capability-holding client under an unprivileged fairway): such a client
 * is left alone, with a debug line.
 *
 * Other uids: a process is of another uid unless its real, effective and
 * saved uids are all fairway's real uid (a setuid program's are not: its
 * effective and saved uids are its owner's). Only a fairway running as
 * root hints processes of other uids: its journal is root's, replayed
 * as root. A plain user's may not change them at all, and one with a file
 * capability could lower a nice that its replay, with the user's
 * privileges only, could never raise back (root's `sudo -E app` in the
 * user's session would keep nice -10 after a crash). Such a client is left
 * alone, with an info line.
 *
 * Nice only competes within one task group: with autogroups (the default
 * on desktop kernels) every session (setsid) has its own group, and a
 * group's threads share the group's weight, so a nice -5 terminal and a
 * nice 0 compile in another session still get half the CPU each; so does
 * SCHED_IDLE's low weight. Slices, SCHED_BATCH and uclamp act across
 * groups. So where an application is alone in its group, its class sets
 * the group's weight too (hints_app_group.c); where it shares one, only its
 * threads change.
 */

/* The default mapping; hints.c says why each value. */
void hints_config_default(struct hints_config *config);
/*
 * Changes one class's target from "CLASS:key=value,...", keys policy
 * (other|batch), nice (N|keep), slice_us (N, 0: leave), uclamp_min (N|-1),
 * or "CLASS:keep". False if the text is not understood.
 */
bool hints_config_parse_target(struct hints_config *config, const char *text);

/*
 * Detects privileges and logs them. state_dir (state_dir.h) holds the
 * journal; NULL, or a directory that fails its checks, fails here unless
 * nothing is to be journalled (dry-run, off). Call hints_replay first so
 * that old changes are undone.
 */
struct hints *hints_create(
		const struct hints_config *config, const char *state_dir);
/* Restores every thread. Accepts NULL. */
void hints_destroy(struct hints *hints);

/*
 * Restores what crashed fairways left in state_dir; entries replayed, or
 * -1 if the directory is refused. Only fairway's own journals are read,
 * and an entry only restores what fairway could have changed (hints.c).
 * Where fairway holds privilege its user does not (privilege.h), the
 * directory is one the user's processes may write, and the journals are
 * replayed with the user's privileges only: CAP_SYS_NICE is dropped
 * meanwhile, so the kernel lets an entry do what the user could and no
 * more.
 */
int hints_replay(const char *state_dir);
/* The same, as_user saying whether to replay with the user's privileges. */
int hints_replay_as(const char *state_dir, bool as_user);
/* Either, with what became of each entry and journal (hint_journal.h). */
int hints_replay_report(
		const char *state_dir, struct hint_journal_report *report);
int hints_replay_report_as(const char *state_dir, bool as_user,
		struct hint_journal_report *report);

/* For hints_app_create: whatever uid, as long as it is one (no setuid). */
#define HINTS_ANY_UID ((uid_t)UINT32_MAX)

/*
 * Starts tracking a client's application, rooted at its process pid.
 * Takes pidfd (-1: one is opened here; the caller's, pinned at accept
 * (process/peer.h), names the peer beyond doubt). Its real, effective and saved
 * uids must all be uid, now and before every change, as rtkit requires:
 * a client that exec'd a setuid program is given back what it had and
 * left alone. NULL if the process is gone already, its uids do not
 * match, or it is of another uid than fairway's and fairway is not root
 * (above). Another application that held pid as a descendant gives it up.
 */
struct hints_app *hints_app_create(
		struct hints *hints, pid_t pid, int pidfd, uid_t uid);
/* Restores its processes' threads and forgets it. Accepts NULL. */
void hints_app_destroy(struct hints_app *app);
/* fairway waits on this application: it never gets SCHED_IDLE. */
void hints_app_never_idle(struct hints_app *app);
/*
 * single: the client's own process alone is the application (a rule's
 * choice); its descendants give back what they have at the next walk.
 */
void hints_app_set_single(struct hints_app *app, bool single);
/*
 * The client's own process alone, whatever a rule says: Xwayland, whose
 * children (xkbcomp) are not its X clients, and a process known only by
 * a pid that nothing pins.
 */
void hints_app_own_process_only(struct hints_app *app);

/*
 * Asks for a class; takes effect at once if the rate limit allows (urgent
 * changes such as first input come through here too), else at a later
 * hints_app_update.
 */
void hints_app_set_class(
		struct hints_app *app, enum ratings_class class, int64_t now);
/*
 * Applies a waiting change, and gives processes and threads that turned
 * up since the current class (each walk_ns at most).
 */
void hints_app_update(struct hints_app *app, int64_t now);
/*
 * Gives the process a target of its own that its class no longer decides
 * (a per-application rule); NULL gives the choice back to its class. It
 * takes effect with the next class change or update, rate-limited alike.
 */
void hints_app_set_target(
		struct hints_app *app, const struct hints_target *target);

/*
 * New targets for every class (a configuration reload): every process
 * tracked gets its class's new target at once.
 */
void hints_set_targets(struct hints *hints,
		const struct hints_target targets[RATINGS_CLASS_COUNT]);

const char *hints_mode_name(enum hints_mode mode);

/*
 * An application for --stats and fairway-top, as JSON members starting
 * with a comma: its hint class and scope ("tree" or "process"), its
 * processes ("process": its pid, threads tracked, whether fairway
 * changed any), how many were past the cap and how many shared its
 * session with another uid at the last walk, and its group: the kind that
 * applies and what fairway set there and from what, or why nothing.
 * Returns what snprintf does.
 */
int hints_app_json(const struct hints_app *app, char *buf, size_t size);

/* The same in numbers, for the scheduler protocol. */
struct hints_app_summary {
	int processes; /* tracked at the last walk, its own included */
	int processes_hinted; /* of which fairway changed some thread */
	int threads; /* tracked, over all its processes */
	enum hint_group_kind group_kind; /* where fairway set it; NONE if not */
	/* The autogroup's nice or the cgroup's weight fairway set there. */
	int64_t group_value;
};
void hints_app_summarize(
		const struct hints_app *app, struct hints_app_summary *summary);

/*
 * The CPU time the application's processes have used, in clock ticks,
 * over those tracked at the last walk.
 */
uint64_t hints_app_cpu_ticks(const struct hints_app *app);

/*
 * The attributes this kernel refused, comma-separated ("slice,uclamp"),
 * or "" when it takes them all: for --stats. Returns what snprintf does.
 */
int hints_unsupported_names(const struct hints *hints, char *buf, size_t size);

#endif
