#include "scheduler/hints/hints_internal.h"
#include "scheduler/hints/privilege.h"
#include "scheduler/log.h"
#include "scheduler/process/peer.h"
#include "scheduler/sched_clock.h"
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Another application's process: each process has one class. */
static bool claimed_elsewhere(pid_t pid, void *data) {
	struct hints_app *app = data;
	struct hints_app *other;
	wl_list_for_each(other, &app->hints->apps, link) {
		struct hint_member *member = other != app && !other->gone
				? hint_tree_find(&other->tree, pid)
				: NULL;
		if (member != NULL && !member->leaving) {
			return true;
		}
	}
	return false;
}

static void member_leaving(struct hint_member *member, void *data) {
	hints_member_leave(data, member);
}

static void sync_journal(struct hints *hints) {
	if (hints->journal != NULL) {
		hint_journal_sync(hints->journal);
	}
}

/*
 * Brings the application's processes and threads up to date. Returns how
 * many threads wait for its class (seen false).
 */
static size_t walk(struct hints_app *app, int64_t now) {
	const struct hint_tree_hooks hooks = {
			.claimed = claimed_elsewhere,
			.leaving = member_leaving,
			.thread_gone = hints_member_forget_thread,
			.data = app,
	};
	app->walked_ns = now;
	app->walked = true;
	int64_t cpu = sched_clock_thread_cpu_ns();
	int found = hint_tree_walk(&app->tree, &hooks);
	app->hints->walks++;
	app->hints->walk_cpu_ns += (uint64_t)(sched_clock_thread_cpu_ns() - cpu);
	if (found < 0) {
		return 0;
	}
	size_t unseen = 0;
	for (size_t i = 0; i < app->tree.count; i++) {
		struct hint_member *member = app->tree.members[i];
		if (member->threads.untracked > 0 && !member->told_untracked) {
			member->told_untracked = true;
			sched_log(SCHED_LOG_INFO,
					"hints: pid %d has %zu threads more than the %zu hinted",
					(int)member->pid, member->threads.untracked,
					member->threads.count);
		}
		for (size_t j = 0; j < member->threads.count; j++) {
			unseen += !member->threads.items[j].seen;
		}
	}
	if (app->tree.untracked > 0 && !app->told_untracked) {
		app->told_untracked = true;
		sched_log(SCHED_LOG_INFO,
				"hints: pid %d's application has %zu processes more than "
				"the %d hinted",
				(int)app->pid, app->tree.untracked, HINT_TREE_PROCS_MAX);
	}
	return unseen;
}

static void apply_class(struct hints_app *app, enum ratings_class class,
		bool restore, bool fresh_only) {
	struct hints *hints = app->hints;
	if (!restore && !hints_member_target(app, class)->keep) {
		bool saved = true;
		for (size_t i = 0; saved && i < app->tree.count; i++) {
			if (!app->tree.members[i]->leaving) {
				saved = hints_member_save(app, app->tree.members[i]);
			}
		}
		/* Written ahead: a crash from here on leaves the originals on
		 * disk. */
		if (!saved ||
				(hints->journal != NULL &&
						!hint_journal_sync(hints->journal))) {
			sched_log(SCHED_LOG_ERROR,
					"hints: no journal, so no change to pid %d", (int)app->pid);
			return;
		}
	}
	for (size_t i = 0; i < app->tree.count && !app->gone; i++) {
		hints_member_apply(
				app, app->tree.members[i], class, restore, fresh_only);
	}
	sync_journal(hints);
}

/* Gives back everything and forgets every process: the root is gone. */
static void forget_all(struct hints_app *app) {
	for (size_t i = 0; i < app->tree.count; i++) {
		struct hint_member *member = app->tree.members[i];
		if (member != hint_tree_root(&app->tree) && !member->leaving &&
				hint_tree_member_ours(&app->tree, member)) {
			hints_member_leave(app, member);
		}
		hints_member_forget(app, member);
	}
	sync_journal(app->hints);
}
struct hints *hints_create(
		const struct hints_config *config, const char *state_dir) {
	struct hints *hints = calloc(1, sizeof(*hints));
	if (hints == NULL) {
		return NULL;
	}
	hints->config = *config;
	wl_list_init(&hints->apps);
	wl_list_init(&hints->orphan_groups);
	hint_kernel_probe(&hints->kernel);
	hints->cap_sys_nice = hint_have_cap_sys_nice();
	hints->undo_as_user = privilege_beyond_user();
	hints->uid = getuid();
	hints->other_uids = geteuid() == 0;
	hint_group_env_system(&hints->group_env);
	hints->self_nice_floor = hint_rlimit_nice_floor(0);
	char children[64];
	snprintf(children, sizeof(children), "/proc/self/task/%d/children",
			(int)syscall(SYS_gettid));
	hints->children_readable = access(children, R_OK) == 0;
	if (!hints->children_readable) {
		sched_log(SCHED_LOG_INFO,
				"hints: the kernel lists no process's children "
				"(CONFIG_PROC_CHILDREN): an application is its client's "
				"own process alone");
	}
	if (config->mode == HINTS_ON) {
		if (state_dir == NULL) {
			sched_log(SCHED_LOG_ERROR, "hints: no state dir for the journal");
			free(hints);
			return NULL;
		}
		hints->journal = hint_journal_create(state_dir);
		if (hints->journal == NULL) {
			free(hints);
			return NULL;
		}
	}
	sched_log(SCHED_LOG_INFO,
			"hints %s: CAP_SYS_NICE %s, RLIMIT_NICE down to nice %d, "
			"uclamp %s, "
			"custom slices %s, default slice %" PRIu64 " ns; %s",
			hints_mode_name(config->mode), hints->cap_sys_nice ? "yes" : "no",
			hints->self_nice_floor,
			hint_kernel_supports(&hints->kernel, HINT_PART_UCLAMP)
					? "yes"
					: "no (kernel without CONFIG_UCLAMP_TASK)",
			hint_kernel_supports(&hints->kernel, HINT_PART_SLICE)
					? "yes"
					: "no (kernel before 6.12)",
			hints->kernel.base_slice_ns,
			hints->cap_sys_nice
					? "nice may be lowered"
					: "nice and SCHED_IDLE only where the client's RLIMIT_NICE "
					  "allows (else SCHED_BATCH); slices and SCHED_BATCH need "
					  "no privilege");
	return hints;
}

void hints_destroy(struct hints *hints) {
	if (hints == NULL) {
		return;
	}
	struct hints_app *app, *tmp;
	wl_list_for_each_safe(app, tmp, &hints->apps, link) {
		hints_app_destroy(app);
	}
	/* fairway stops: what the kernel put off is waited for now. */
	hints_app_group_retry_orphans(hints, true);
	hint_journal_destroy(hints->journal);
	free(hints);
}

struct hints_app *hints_app_create(
		struct hints *hints, pid_t pid, int pidfd, uid_t uid) {
	struct hints_app *app = calloc(1, sizeof(*app));
	if (app == NULL) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	if (!hint_tree_init(&app->tree, pid, pidfd, uid)) {
		sched_log(SCHED_LOG_DEBUG,
				"hints: pid %d is gone already, or not of uid %d alone",
				(int)pid, (int)uid);
		free(app);
		return NULL;
	}
	if (!hints->other_uids && app->tree.uid != hints->uid) {
		sched_log(SCHED_LOG_INFO,
				"hints: pid %d runs as uid %u, not as fairway's uid %u: left "
				"alone",
				(int)pid, (unsigned)app->tree.uid, (unsigned)hints->uid);
		hint_tree_finish(&app->tree);
		free(app);
		return NULL;
	}
	app->hints = hints;
	app->pid = pid;
	app->uid = app->tree.uid;
	app->tree.single = !hints->children_readable;
	app->wanted = app->applied = RATINGS_IDLE;
	sched_token_bucket_init(&app->tokens, hints->config.burst);
	/*
	 * Its own client now: an application that held it as a descendant
	 * gives it back, and what was found through it, before this one
	 * saves what it has.
	 */
	struct hints_app *other;
	wl_list_for_each(other, &hints->apps, link) {
		for (size_t i = 1; i < other->tree.count; i++) {
			struct hint_member *member = other->tree.members[i];
			struct hint_member *parent =
					hint_tree_find(&other->tree, member->parent);
			if (member->pid == pid ||
					(parent != NULL && parent->leaving && parent->claimed)) {
				member->claimed = true;
				hints_member_leave(other, member);
			}
		}
	}
	sync_journal(hints);
	wl_list_insert(&hints->apps, &app->link);
	return app;
}

void hints_app_destroy(struct hints_app *app) {
	if (app == NULL) {
		return;
	}
	if (!app->gone && hints_member_verify(hint_tree_root(&app->tree), NULL)) {
		apply_class(app, app->applied, true, false);
	}
	hints_app_group_restore(app, true);
	forget_all(app);
	hint_tree_finish(&app->tree);
	wl_list_remove(&app->link);
	free(app);
}

void hints_app_never_idle(struct hints_app *app) {
	app->never_idle = true;
}

static void update_single(struct hints_app *app) {
	bool single = app->single_rule || app->own_process_only ||
			!app->hints->children_readable;
	if (single != app->tree.single) {
		app->tree.single = single;
		/* Its descendants leave, or are found, at the next walk. */
		app->walked = false;
	}
}

void hints_app_set_single(struct hints_app *app, bool single) {
	app->single_rule = single;
	update_single(app);
}

void hints_app_own_process_only(struct hints_app *app) {
	app->own_process_only = true;
	update_single(app);
}

static bool take_token(struct hints_app *app, int64_t now) {
	const struct hints_config *config = &app->hints->config;
	return sched_token_bucket_take(
			&app->tokens, config->burst, config->refill_ns, now);
}

/* Whether a walk for new processes and threads is due and affordable. */
static bool walk_due(struct hints_app *app, int64_t now) {
	const struct hints_config *config = &app->hints->config;
	if (app->walked && now - app->walked_ns < config->walk_ns) {
		return false;
	}
	return sched_token_bucket_ready(
			&app->tokens, config->burst, config->refill_ns, now);
}

void hints_app_update(struct hints_app *app, int64_t now) {
	if (!wl_list_empty(&app->hints->orphan_groups)) {
		hints_app_group_retry_orphans(app->hints, false);
	}
	if (app->gone) {
		return;
	}
	struct hint_member *root = hint_tree_root(&app->tree);
	bool alive = hints_member_verify(root, NULL);
	if (alive && !peer_uids_are(app->pid, app->uid)) {
		/* It exec'd a setuid program, say: no longer the client's own. */
		sched_log(SCHED_LOG_INFO,
				"hints: pid %d no longer runs as uid %d alone: given back "
				"what it had, and left alone",
				(int)app->pid, (int)app->uid);
		apply_class(app, app->applied, true, false);
		alive = false;
	}
	if (!alive) {
		app->gone = true;
		/* Its session's other processes may hold its autogroup still. */
		hints_app_group_restore(app, true);
		forget_all(app);
		return;
	}
	bool change = app->wanted != app->applied || app->retarget;
	const struct hints_target *target =
			hints_member_target(app, change ? app->wanted : app->applied);
	if (change) {
		if (!take_token(app, now)) {
			return;
		}
		sched_log(SCHED_LOG_INFO, "hints: pid %d %s -> %s%s", (int)app->pid,
				ratings_class_name(app->applied),
				ratings_class_name(app->wanted),
				app->fixed ? " (a target of its own)" : "");
		if (!target->keep) {
			walk(app, now);
		}
		app->applied = app->wanted;
		app->retarget = false;
		apply_class(app, app->applied, target->keep, false);
		hints_app_group_update(app, now, true);
		return;
	}
	/*
	 * New processes and threads get the class at the next walk. The walk
	 * runs only with a token to spare, and takes it only if it found
	 * something to change: an application that keeps starting processes
	 * or threads is hinted no faster than one that changes class, and one
	 * that does not costs no token.
	 */
	if (!target->keep && app->group.changed && !walk_due(app, now) &&
			now - app->walked_ns >= app->hints->config.walk_ns) {
		/*
		 * A raised group is walked for processes of another uid at every
		 * walk interval, token or not: one must not share its weight for
		 * longer (hints_app_group.c). New threads wait for a token.
		 */
		walk(app, now);
		hints_app_group_update(app, now, false);
		return;
	}
	if (target->keep || !walk_due(app, now)) {
		if (app->group.pending) {
			hints_app_group_update(app, now, false);
		}
		return;
	}
	if (walk(app, now) > 0 && take_token(app, now)) {
		apply_class(app, app->applied, false, true);
	}
	hints_app_group_update(app, now, false);
}
void hints_app_set_class(
		struct hints_app *app, enum ratings_class class, int64_t now) {
	app->wanted = class;
	hints_app_update(app, now);
}

static bool target_equal(
		const struct hints_target *a, const struct hints_target *b) {
	return a->keep == b->keep && a->policy == b->policy &&
			a->set_nice == b->set_nice && a->nice == b->nice &&
			a->slice_ns == b->slice_ns && a->uclamp_min == b->uclamp_min &&
			a->set_group == b->set_group && a->group_nice == b->group_nice;
}

void hints_app_set_target(
		struct hints_app *app, const struct hints_target *target) {
	bool fixed = target != NULL;
	if (fixed == app->fixed &&
			(!fixed || target_equal(target, &app->fixed_target))) {
		return;
	}
	app->fixed = fixed;
	if (fixed) {
		app->fixed_target = *target;
	}
	app->retarget = true;
}

void hints_set_targets(struct hints *hints,
		const struct hints_target targets[RATINGS_CLASS_COUNT]) {
	memcpy(hints->config.targets, targets, sizeof(hints->config.targets));
	struct hints_app *app;
	wl_list_for_each(app, &hints->apps, link) {
		if (!app->gone) {
			apply_class(app, app->applied,
					hints_member_target(app, app->applied)->keep, false);
			hints_app_group_update(app, app->walked_ns, true);
		}
	}
}
