#include "scheduler/hints/hints_internal.h"
#include "scheduler/log.h"
#include "scheduler/process/proc_stat.h"
#include "scheduler/sched_clock.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * An application's task group (hint_group.h): its class sets the group's
 * weight where the application is alone in it, and the original goes
 * back when it is no longer, when its class keeps the group, and when it
 * leaves. Saved and journalled before the first change, as threads are.
 */

/* The alone check again, at most this often while the tree changes... */
#define RECHECK_NS (INT64_C(5) * 1000 * 1000 * 1000)
/* ...and at least this often whatever it does (a process reparented from
 * a member that exited may still share the session). */
#define REFRESH_NS (INT64_C(30) * 1000 * 1000 * 1000)

static bool is_member(pid_t pid, void *data) {
	struct hints_app *app = data;
	struct hint_member *member = hint_tree_find(&app->tree, pid);
	return member != NULL && !member->leaving;
}

static uint64_t group_id(const struct hint_group_place *place) {
	return place->kind == HINT_GROUP_AUTOGROUP ? place->autogroup : place->ino;
}

static enum hint_journal_kind journal_kind(enum hint_group_kind kind) {
	return kind == HINT_GROUP_AUTOGROUP ? HINT_JOURNAL_AUTOGROUP
										: HINT_JOURNAL_CGROUP;
}

/* What fairway may ask of a group with value orig for target. */
static void compute_group(struct hints_app *app,
		const struct hints_target *target, enum hint_group_kind kind,
		const struct hint_group_value *orig, struct hint_group_value *out) {
	struct hints *hints = app->hints;
	*out = *orig;
	int want = target->group_nice < HINTS_NICE_FLOOR ? HINTS_NICE_FLOOR
													 : target->group_nice;
	if (kind == HINT_GROUP_AUTOGROUP) {
		/* The kernel checks fairway's own privilege, not the target's. */
		int floor = hints->cap_sys_nice ? -20 : hints->self_nice_floor;
		/* A journal replayed with the user's privileges (a file
		 * capability: hints.h) has the user's own floor. */
		int undo_floor = hints->undo_as_user ? hints->self_nice_floor : floor;
		if (want < orig->nice) {
			want = want < floor ? floor : want;
			want = want > orig->nice ? orig->nice : want;
		} else if (want > orig->nice && orig->nice < 0 &&
				undo_floor > orig->nice) {
			/* Raised, it could never be lowered back on restore. */
			want = orig->nice;
		}
		out->nice = want;
		return;
	}
	if (target->policy == SCHED_IDLE && orig->idle >= 0) {
		out->idle = 1;
		return;
	}
	/* A boost never takes weight away, nor background adds it. */
	uint32_t weight = hint_group_weight_of_nice(kind, want);
	bool boost = weight > hint_group_default_weight(kind);
	out->weight = boost ? (weight > orig->weight ? weight : orig->weight)
						: (weight < orig->weight ? weight : orig->weight);
}

static bool group_value_equal(
		const struct hint_group_value *a, const struct hint_group_value *b) {
	return a->nice == b->nice && a->weight == b->weight && a->idle == b->idle;
}

static void log_group(struct hints_app *app,
		const struct hint_group_place *place,
		const struct hint_group_value *value, const char *what) {
	bool dry = app->hints->config.mode == HINTS_DRY_RUN;
	if (place->kind == HINT_GROUP_AUTOGROUP) {
		sched_log(SCHED_LOG_INFO,
				"hints%s: pid %d's autogroup-%" PRIu64 " %s: nice %" PRId32,
				dry ? " (dry-run)" : "", (int)app->pid, place->autogroup, what,
				value->nice);
	} else {
		sched_log(SCHED_LOG_INFO,
				"hints%s: pid %d's %s %s %s: %s %" PRIu32 ", idle %d",
				dry ? " (dry-run)" : "", (int)app->pid,
				hint_group_kind_name(place->kind), place->cgroup, what,
				place->kind == HINT_GROUP_CGROUP ? "cpu.weight" : "cpu.shares",
				value->weight, value->idle);
	}
}

/*
 * A process of the application to write its autogroup through: its own,
 * or while that is gone a descendant still in the session.
 */
static const struct hint_member *writer(struct hints_app *app) {
	for (size_t i = 0; i < app->tree.count; i++) {
		const struct hint_member *member = app->tree.members[i];
		bool ours = i == 0
				? hints_member_verify(member, NULL)
				: !member->leaving && hint_tree_member_ours(&app->tree, member);
		if (ours) {
			return member;
		}
	}
	return NULL;
}

/*
 * hint_group_write, tried again up to tries times in all while the kernel
 * puts it off (EAGAIN): it takes one autogroup write every 100 ms from
 * writers without CAP_SYS_ADMIN. Returns 0 or the errno.
 */
static int write_retrying(const struct hint_group_env *env,
		const struct hint_group_place *place, pid_t pid,
		const struct hint_group_value *value,
		const struct hint_group_value *current, int tries) {
	int err = hint_group_write(env, place, pid, value, current);
	while (err == EAGAIN && --tries > 0) {
		nanosleep(&(struct timespec){.tv_nsec = 110 * 1000 * 1000}, NULL);
		err = hint_group_write(env, place, pid, value, current);
	}
	return err;
}

/*
 * Writes value to the group through pid (an autogroup's: pidfd holds it,
 * its start time checked), retried for a while when wait is set. Returns
 * 0 or the errno.
 */
static int write_through(struct hints *hints,
		const struct hint_group_place *place, pid_t pid, int pidfd,
		uint64_t start, const struct hint_group_value *value, bool wait) {
	struct hint_group_value current;
	struct proc_stat stat;
	if (!proc_stat_pidfd_alive(pidfd) ||
			!proc_stat_read(PROC_ROOT, pid, pid, &stat) ||
			stat.start != start ||
			!hint_group_read(&hints->group_env, place, pid, &current)) {
		return ESTALE;
	}
	int err = write_retrying(
			&hints->group_env, place, pid, value, &current, wait ? 4 : 1);
	if (err == 0 && !group_value_equal(value, &current)) {
		hints->changes++;
	}
	return err;
}

static int write_group(struct hints_app *app,
		const struct hint_group_place *place,
		const struct hint_group_value *value) {
	const struct hint_member *member = writer(app);
	if (member == NULL) {
		return ESTALE;
	}
	return write_through(app->hints, place, member->pid, member->pidfd,
			member->start, value, false);
}

struct writer_search {
	const struct hint_group_env *env;
	struct hint_group_place place;
	pid_t found;
	bool lives; /* a process was seen in the group */
};

/* Ends hint_group_session_alone's scan at the first process through
 * which the autogroup reads, and whose file this process may write. */
static bool cannot_write_through(pid_t pid, void *data) {
	struct writer_search *search = data;
	struct hint_group_value value;
	char path[300];
	snprintf(
			path, sizeof(path), "%s/%d/autogroup", search->env->proc, (int)pid);
	if (!hint_group_read(search->env, &search->place, pid, &value)) {
		return true;
	}
	search->lives = true;
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0) {
		return true;
	}
	search->found = pid;
	return false;
}

/*
 * A restore the kernel put off (its limit on autogroup writes) when the
 * application went: kept, with a process to write through, and tried again
 * at the next update (hints_app_group_retry_orphans).
 */
struct hints_orphan_group {
	struct hint_group_place place;
	struct hint_group_value saved;
	pid_t pid;
	int pidfd;
	uint64_t start;
	struct wl_list link; /* hints.orphan_groups */
};

static void orphan_free(
		struct hints *hints, struct hints_orphan_group *orphan) {
	if (hints->journal != NULL) {
		hint_journal_remove_group(hints->journal,
				journal_kind(orphan->place.kind), group_id(&orphan->place));
		hint_journal_sync(hints->journal);
	}
	wl_list_remove(&orphan->link);
	close(orphan->pidfd);
	free(orphan);
}

void hints_app_group_retry_orphans(struct hints *hints, bool wait) {
	struct hints_orphan_group *orphan, *tmp;
	wl_list_for_each_safe(orphan, tmp, &hints->orphan_groups, link) {
		int err = write_through(hints, &orphan->place, orphan->pid,
				orphan->pidfd, orphan->start, &orphan->saved, wait);
		if (err != EAGAIN) {
			orphan_free(hints, orphan);
		}
	}
}

/*
 * The application goes with its group's restore put off: kept for later,
 * written through pid (pinned by pidfd, which is taken). False if it
 * cannot be kept.
 */
static bool orphan(
		struct hints_app *app, pid_t pid, int pidfd, uint64_t start) {
	struct hints_app_group *group = &app->group;
	struct hints_orphan_group *orphan =
			pidfd >= 0 ? calloc(1, sizeof(*orphan)) : NULL;
	if (orphan == NULL) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return false;
	}
	*orphan = (struct hints_orphan_group){
			.place = group->place,
			.saved = group->saved,
			.pid = pid,
			.pidfd = pidfd,
			.start = start,
	};
	wl_list_insert(&app->hints->orphan_groups, &orphan->link);
	return true;
}

/* orphan(), through the application's own process. */
static bool orphan_of_member(struct hints_app *app) {
	const struct hint_member *member = writer(app);
	return member != NULL &&
			orphan(app, member->pid, fcntl(member->pidfd, F_DUPFD_CLOEXEC, 0),
					member->start);
}

/*
 * Every process of the application went (or the one left to write through
 * runs a setuid program now), and its autogroup may live on with
 * processes of its session that were never of it: a setuid program one of
 * them started, which the walks found too late or never saw. The
 * group goes back through any process of the session that fairway may
 * write through (as root, any; otherwise its own uid's), and where none
 * is left, it says so: the group stays as it is until its session ends.
 */
static int restore_through_session(struct hints_app *app, bool leaving) {
	struct hints *hints = app->hints;
	struct hints_app_group *group = &app->group;
	struct writer_search search = {
			.env = &hints->group_env,
			.place = group->place,
	};
	hint_group_session_alone(&hints->group_env, app->tree.sid,
			cannot_write_through, &search, NULL);
	int pidfd = search.found > 0 ? (int)syscall(SYS_pidfd_open, search.found, 0)
								 : -1;
	struct proc_stat stat;
	int err = ESTALE;
	if (pidfd >= 0 &&
			proc_stat_read(PROC_ROOT, search.found, search.found, &stat)) {
		err = write_through(hints, &group->place, search.found, pidfd,
				stat.start, &group->saved, false);
		if (err == EAGAIN && leaving &&
				orphan(app, search.found, pidfd, stat.start)) {
			return EAGAIN;
		}
	}
	if (pidfd >= 0) {
		close(pidfd);
	}
	if (err != 0 && err != EAGAIN && search.lives) {
		sched_log(SCHED_LOG_ERROR,
				"hints: pid %d's autogroup-%" PRIu64 " left at nice %" PRId32
				" until its session ends: none of its processes that fairway "
				"may write through is left (%s)",
				(int)app->pid, group->place.autogroup, group->applied.nice,
				strerror(err));
	}
	return err;
}

void hints_app_group_restore(struct hints_app *app, bool leaving) {
	struct hints_app_group *group = &app->group;
	if (!group->changed) {
		return;
	}
	struct hints *hints = app->hints;
	log_group(app, &group->place, &group->saved, "restore");
	int err = hints->config.mode == HINTS_DRY_RUN
			? 0
			: write_group(app, &group->place, &group->saved);
	if ((err == ESTALE || err == EACCES || err == EPERM) &&
			group->place.kind == HINT_GROUP_AUTOGROUP) {
		/* (Its own process gone, or exec'd a setuid program.) */
		err = restore_through_session(app, leaving);
		if (err == EAGAIN && leaving) {
			/* Kept, through that process. */
			group->changed = false;
			group->pending = false;
			return;
		}
	}
	if (err == EAGAIN && leaving && orphan_of_member(app)) {
		/* Never waited for on fairway's thread: later, on its own. */
		group->changed = false;
		group->pending = false;
		return;
	}
	if (err == EAGAIN && !leaving) {
		group->pending = true;
		return;
	}
	if (err != 0) {
		/* Gone with its processes (ESTALE), or refused: nothing of ours.
		 * (Put off with nothing left to write through: the journal's
		 * line goes too, as the autogroup goes with its session.) */
		sched_log(SCHED_LOG_DEBUG, "hints: pid %d's group not restored: %s",
				(int)app->pid, strerror(err));
	}
	if (hints->journal != NULL) {
		hint_journal_remove_group(hints->journal,
				journal_kind(group->place.kind), group_id(&group->place));
		hint_journal_sync(hints->journal);
	}
	group->changed = false;
	group->pending = false;
}

/* Saves and journals the group's value before its first change. */
static bool save_group(
		struct hints_app *app, const struct hint_group_place *place) {
	struct hints *hints = app->hints;
	struct hints_app_group *group = &app->group;
	struct hint_member *root = hint_tree_root(&app->tree);
	struct hint_group_value current;
	if (!hint_group_read(&hints->group_env, place, root->pid, &current)) {
		return false;
	}
	if (hints->journal != NULL) {
		struct hint_journal_entry entry = {
				.kind = journal_kind(place->kind),
				.pid = root->pid,
				.tid = root->pid,
				.start = root->start,
		};
		struct hint_journal_group saved = {
				.sid = app->tree.sid,
				.id = group_id(place),
				.version = place->kind == HINT_GROUP_CGROUP_V1 ? 1 : 2,
				.nice = current.nice,
				.weight = current.weight,
				.idle = current.idle,
		};
		snprintf(saved.path, sizeof(saved.path), "%s", place->cgroup);
		/* Written ahead: a crash from here on leaves the original. */
		if (!hint_journal_add_group(hints->journal, &entry, &saved) ||
				!hint_journal_sync(hints->journal)) {
			hint_journal_remove_group(hints->journal, entry.kind, saved.id);
			return false;
		}
	}
	group->place = *place;
	group->saved = group->applied = current;
	group->changed = true;
	return true;
}

/* Why the group is left as it is, once a reason a state. */
static void not_set(struct hints_app *app, const char *why) {
	struct hints_app_group *group = &app->group;
	hints_app_group_restore(app, false);
	if (group->why != why) {
		sched_log(SCHED_LOG_DEBUG, "hints: pid %d's group left alone: %s",
				(int)app->pid, why);
	}
	group->why = why;
}

static bool alone(struct hints_app *app, const struct hint_group_place *place,
		int64_t now) {
	int64_t cpu = sched_clock_thread_cpu_ns();
	struct hints_app_group *group = &app->group;
	group->checked = true;
	group->checked_ns = now;
	if (app->tree.outsiders > 0 || app->tree.untracked > 0) {
		/* The walk saw one already: no need to scan for it. */
		group->alone = false;
	} else if (place->kind == HINT_GROUP_AUTOGROUP) {
		size_t scanned = 0;
		group->alone = hint_group_session_alone(&app->hints->group_env,
				app->tree.sid, is_member, app, &scanned);
		app->hints->session_scans++;
		app->hints->session_scanned += scanned;
	} else {
		group->alone = hint_group_cgroup_alone(
				&app->hints->group_env, place, is_member, app);
	}
	app->hints->walk_cpu_ns += (uint64_t)(sched_clock_thread_cpu_ns() - cpu);
	return group->alone;
}

static bool recheck_due(struct hints_app *app, int64_t now) {
	struct hints_app_group *group = &app->group;
	if (!group->checked || now - group->checked_ns >= REFRESH_NS) {
		return true;
	}
	if (app->tree.outsiders > 0 && (group->changed || group->pending)) {
		/* Another uid's process in its session (a setuid program one of
		 * its processes ran): the group goes back now, not in a while. */
		return true;
	}
	bool changed = app->tree.left > 0 || app->tree.joined > 0 ||
			app->tree.outsiders > 0 || app->tree.untracked > 0;
	return changed && now - group->checked_ns >= RECHECK_NS;
}

/*
 * Where the application's group is and whether it is the application's
 * alone: false, with the group given back, if not.
 */
static bool place_group(
		struct hints_app *app, int64_t now, struct hint_group_place *place) {
	struct hints_app_group *group = &app->group;
	hint_group_locate(&app->hints->group_env, app->pid, place);
	group->kind = place->kind;
	if (group->changed && !hint_group_place_equal(place, &group->place)) {
		/* It moved (setsid, another cgroup): the old one goes back. */
		hints_app_group_restore(app, false);
	}
	if (place->kind == HINT_GROUP_NONE) {
		not_set(app, place->why);
		return false;
	}
	if (!alone(app, place, now)) {
		not_set(app,
				place->kind == HINT_GROUP_AUTOGROUP
						? "its session holds processes not of it"
						: "its cgroup holds processes not of it");
		return false;
	}
	if (group->refused && hint_group_place_equal(place, &group->refused_at)) {
		not_set(app, "fairway may not write it");
		return false;
	}
	return true;
}

void hints_app_group_update(struct hints_app *app, int64_t now, bool full) {
	struct hints *hints = app->hints;
	struct hints_app_group *group = &app->group;
	const struct hints_target *target = hints_member_target(app, app->applied);
	if (!hints->config.groups) {
		not_set(app, "group hints off");
		return;
	}
	if (target->keep || !target->set_group ||
			(app->never_idle && target->policy == SCHED_IDLE)) {
		/* (fairway waits on a never-idle one: no background group.) */
		group->kind = HINT_GROUP_NONE;
		not_set(app, "its class keeps the group");
		return;
	}
	bool check = full || recheck_due(app, now);
	if (!check && !group->pending) {
		return;
	}
	struct hint_group_place place = group->place;
	if ((check || !group->changed) && !place_group(app, now, &place)) {
		return;
	}
	if (!group->changed && hints->config.mode != HINTS_DRY_RUN &&
			!save_group(app, &place)) {
		not_set(app, "its value could not be read or journalled");
		return;
	}
	struct hint_group_value orig, want;
	if (group->changed) {
		orig = group->saved;
	} else if (!hint_group_read(&hints->group_env, &place,
					   hint_tree_root(&app->tree)->pid, &orig)) {
		not_set(app, "its value could not be read");
		return;
	}
	if (orig.idle == 1) {
		/* Made idle by its owner, as a SCHED_IDLE thread is left be. */
		not_set(app, "its owner made its cgroup idle");
		return;
	}
	compute_group(app, target, place.kind, &orig, &want);
	group->why = NULL;
	if (group->changed && group_value_equal(&want, &group->applied) &&
			!group->pending) {
		return;
	}
	log_group(app, &place, &want, ratings_class_name(app->applied));
	if (hints->config.mode == HINTS_DRY_RUN) {
		group->place = place;
		group->applied = want;
		return;
	}
	int err = write_group(app, &place, &want);
	group->pending = err == EAGAIN;
	if (err == 0 || err == EAGAIN) {
		group->applied = want;
		return;
	}
	if (err == EPERM || err == EACCES || err == EROFS) {
		/* Said once for this group; per-thread hints go on. */
		sched_log(SCHED_LOG_INFO,
				"hints: fairway may not set pid %d's %s (%s): its threads' "
				"attributes only",
				(int)app->pid, hint_group_kind_name(place.kind), strerror(err));
		group->refused = true;
		group->refused_at = place;
	}
	hints_app_group_restore(app, false);
	group->why = err == ESTALE ? "it went away" : "fairway may not write it";
}

/* --- after a crash --------------------------------------------------- */

/* A process of autogroup id in session sid, to write through; 0: none. */
static pid_t autogroup_process(const struct hint_group_env *env,
		const struct hint_journal_entry *entry,
		const struct hint_journal_group *saved) {
	struct writer_search search = {
			.env = env,
			.place = {.kind = HINT_GROUP_AUTOGROUP, .autogroup = saved->id},
	};
	struct proc_stat stat;
	if (proc_stat_read(env->proc, entry->pid, entry->pid, &stat) &&
			stat.start == entry->start &&
			!cannot_write_through(entry->pid, &search)) {
		return entry->pid;
	}
	/* Its first process is gone: any other of its session will do. */
	hint_group_session_alone(
			env, saved->sid, cannot_write_through, &search, NULL);
	return search.found;
}

/*
 * What a journal line asks is held to what fairway could have saved: a
 * nice within the kernel's range and no lower than fairway's floor unless
 * the group is there already, a weight within the kernel's range, the
 * very group (autogroup id, cgroup inode) it named.
 */
bool hints_app_group_replay(const struct hint_group_env *env,
		const struct hint_journal_entry *entry,
		struct hint_journal_report *report) {
	const struct hint_journal_group *saved = entry->group;
	struct hint_group_place place = {0};
	pid_t through = 0;
	if (entry->kind == HINT_JOURNAL_AUTOGROUP) {
		place.kind = HINT_GROUP_AUTOGROUP;
		place.autogroup = saved->id;
		through = autogroup_process(env, entry, saved);
		if (through == 0) {
			/* Its session is gone, and the autogroup with it. */
			report->gone++;
			return false;
		}
	} else {
		place.kind =
				saved->version == 1 ? HINT_GROUP_CGROUP_V1 : HINT_GROUP_CGROUP;
		place.ino = saved->id;
		if (strstr(saved->path, "/..") != NULL || saved->path[0] != '/') {
			sched_log(SCHED_LOG_ERROR,
					"hints: journal line for a cgroup refused: a path "
					"fairway never saved");
			report->refused++;
			return false;
		}
		snprintf(place.cgroup, sizeof(place.cgroup), "%s", saved->path);
	}
	struct hint_group_value current, want;
	if (!hint_group_read(env, &place, through, &current)) {
		report->gone++;
		return false;
	}
	want = current;
	if (place.kind == HINT_GROUP_AUTOGROUP) {
		int floor = current.nice < HINTS_NICE_FLOOR ? current.nice
													: HINTS_NICE_FLOOR;
		want.nice = saved->nice < floor ? floor
				: saved->nice > 19      ? 19
										: saved->nice;
	} else {
		uint32_t most = place.kind == HINT_GROUP_CGROUP ? 10000 : 262144;
		uint32_t least = place.kind == HINT_GROUP_CGROUP ? 1 : 2;
		want.weight = saved->weight < least ? least
				: saved->weight > most      ? most
											: saved->weight;
		if (current.idle >= 0 && saved->idle >= 0) {
			want.idle = saved->idle != 0;
		}
	}
	int err = write_retrying(env, &place, through, &want, &current, 4);
	if (err != 0) {
		sched_log(SCHED_LOG_ERROR, "hints: cannot restore a %s: %s",
				hint_group_kind_name(place.kind), strerror(err));
		report->failed++;
		return false;
	}
	report->restored++;
	return true;
}
