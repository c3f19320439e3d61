#ifndef FAIRWAY_SCHEDULER_HINTS_HINTS_STATE_H
#define FAIRWAY_SCHEDULER_HINTS_HINTS_STATE_H

#include "scheduler/hints/hint_attr.h"
#include "scheduler/hints/hint_group.h"
#include "scheduler/hints/hint_journal.h"
#include "scheduler/hints/hint_tree.h"
#include "scheduler/ratings/ratings_client.h"
#include "scheduler/token_bucket.h"
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-util.h>

/*
 * What the hints keep (hints.h says what they do): the mapping from
 * class to attributes, each application with its task group, and the
 * whole. Shared by hints.c and the files it is split into (hints_member.c,
 * hints_app_group.c, hints_describe.c), which reach each other only through
 * these records.
 */

struct hints;

enum hints_mode {
	HINTS_OFF,
	HINTS_DRY_RUN, /* log every change that would be made, make none */
	HINTS_ON,
};

/* What a class asks of each thread. */
struct hints_target {
	bool keep; /* the thread's original attributes */
	uint32_t policy; /* SCHED_OTHER, SCHED_BATCH or SCHED_IDLE */
	bool set_nice;
	int32_t nice; /* bounded by what privilege allows, see hints.c */
	uint64_t slice_ns; /* custom EEVDF slice, 0: leave it */
	int32_t uclamp_min; /* -1: leave it */
	/*
	 * The application's task group (hint_group.h), where it is alone in
	 * one: an autogroup's nice, or a cgroup's weight of that nice (and
	 * cpu.idle with SCHED_IDLE's policy), bounded as thread nice is.
	 */
	bool set_group;
	int32_t group_nice;
};

#define HINTS_DEFAULT_BURST 4
#define HINTS_DEFAULT_REFILL_MS 2000
/* Etsion, Tsafrir and Feitelson's T_update, as the ratings' own. */
#define HINTS_DEFAULT_WALK_MS 1000
/* rtkit's floor: nothing goes below nice -15, whatever the config says. */
#define HINTS_NICE_FLOOR (-15)

struct hints_config {
	enum hints_mode mode;
	bool groups; /* the group level (hint_group.h) too */
	struct hints_target targets[RATINGS_CLASS_COUNT];
	int burst; /* class changes a process may make at once */
	int64_t refill_ns; /* time to earn one more */
	int64_t walk_ns; /* the least time between walks for new processes */
};

/* An application's task group, and what fairway did to it. */
struct hints_app_group {
	enum hint_group_kind kind; /* what applies to it, at the last look */
	const char *why; /* why it is left as it is; NULL: it is set */
	bool changed; /* saved, journalled, and changed by fairway */
	struct hint_group_place place; /* where it was changed */
	struct hint_group_value saved, applied;
	bool pending; /* the kernel put a write off (EAGAIN): again later */
	bool alone; /* no process but the application's in it, at the check */
	bool checked;
	int64_t checked_ns;
	bool refused; /* fairway may not write refused_at: not tried again */
	struct hint_group_place refused_at;
};

/* An application's hints (renamed hints_app once its callers follow). */
struct hints_app {
	struct hints *hints;
	pid_t pid; /* the client's own process: the tree's root */
	uid_t uid; /* what every process's real, effective and saved uids are */
	/*
	 * fairway blocks on it (Xwayland: wlroots' window manager waits on
	 * its replies on fairway's thread): never below SCHED_BATCH, whatever
	 * its class asks. Set it with hints_app_never_idle.
	 */
	bool never_idle;
	bool single_rule; /* a rule narrowed it to its own process */
	bool own_process_only; /* hints_app_own_process_only */
	enum ratings_class wanted, applied;
	/* A target of its own, whatever its class (hints_app_set_target). */
	bool fixed;
	struct hints_target fixed_target;
	bool retarget; /* the fixed target changed: apply it */
	struct sched_token_bucket tokens; /* changes it may make */
	bool gone; /* its own process exited, or no longer verifies */
	bool told_untracked; /* logged that it has more processes than tracked */
	struct hint_tree tree; /* its processes and their threads */
	struct hints_app_group group;
	bool walked; /* walked_ns holds the last walk */
	int64_t walked_ns;
	struct wl_list link; /* hints.apps */
};

struct hints {
	struct hints_config config;
	bool cap_sys_nice;
	/*
	 * The journal is replayed with the user's privileges only
	 * (privilege.h): no change is made that those could not undo after
	 * a crash (SCHED_IDLE, a raised nice), whatever fairway may do now.
	 */
	bool undo_as_user;
	/*
	 * fairway's real uid, and whether it hints processes of other uids
	 * (hints.h): only as root, whose journal root alone replays.
	 */
	uid_t uid;
	bool other_uids;
	/* What the kernel takes (hint_attr.h): probed, then learnt. */
	struct hint_kernel kernel;
	struct hint_journal *journal; /* NULL: none (dry-run, no runtime dir) */
	struct hint_group_env group_env; /* the system's files, or a test's */
	/* The lowest nice fairway's own RLIMIT_NICE allows (autogroups). */
	int self_nice_floor;
	/* /proc/PID/task/TID/children exists: applications are trees. */
	bool children_readable;
	/* Scans of /proc for a session's processes, and processes read. */
	uint64_t session_scans, session_scanned;
	/* Walks of applications' processes, and fairway's CPU time in them
	 * and in the group checks (CLOCK_THREAD_CPUTIME_ID). */
	uint64_t walks, walk_cpu_ns;
	struct wl_list apps; /* hints_app.link */
	/* Group restores put off after their applications went. */
	struct wl_list orphan_groups;
	uint64_t changes; /* sched_setattr calls made (or, dry-run, logged) */
	/* changes whose process went away before they were checked: given
	 * back where the tid is still its thread's, else left alone */
	uint64_t undone;
	/* Tests only: called between a change and its verification. */
	void (*after_change)(struct hints_app *app, pid_t tid, void *data);
	void *after_change_data;
};

#endif
