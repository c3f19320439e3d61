#include "scheduler/hints/hints_internal.h"
#include "scheduler/log.h"
#include "scheduler/process/peer.h"
#include "scheduler/process/proc_stat.h"
#include <inttypes.h>
#include <sched.h>

/* The lowest nice fairway may give pid's threads. */
static int lowest_nice(struct hints *hints, pid_t pid) {
	return hints->cap_sys_nice ? -20 : hint_rlimit_nice_floor(pid);
}

/* The lowest nice from which a restore could bring a thread back. */
static int lowest_undoable_nice(struct hints *hints, pid_t pid) {
	return hints->undo_as_user ? hint_rlimit_nice_floor(pid)
							   : lowest_nice(hints, pid);
}

static void compute_target(struct hints_app *app,
		const struct hint_member *member, const struct hints_target *target,
		const struct hint_attr *orig, struct hint_attr *out) {
	struct hints *hints = app->hints;
	*out = *orig;
	if (target->keep) {
		return;
	}
	int floor = lowest_nice(hints, member->pid);
	/* What a raised nice and SCHED_IDLE both need to be undone, by a
	 * restore here or by a journal's replay after a crash. */
	bool restorable = lowest_undoable_nice(hints, member->pid) <= orig->nice;
	out->policy = target->policy;
	if (out->policy == SCHED_IDLE && !restorable) {
		/* The kernel lets a thread leave SCHED_IDLE only for a nice
		 * that fairway could set: otherwise it would stay there. */
		out->policy = SCHED_BATCH;
	}
	if (out->policy == SCHED_IDLE && app->never_idle) {
		/*
		 * fairway waits on it: under load, a SCHED_IDLE Xwayland holds
		 * up wlroots' window manager, which blocks fairway's thread on
		 * its replies, and with it every client.
		 */
		out->policy = SCHED_BATCH;
	}
	out->reset_on_fork = true;
	if (target->set_nice) {
		int want = target->nice < HINTS_NICE_FLOOR ? HINTS_NICE_FLOOR
												   : target->nice;
		if (want < orig->nice) {
			want = want < floor ? floor : want;
			want = want > orig->nice ? orig->nice : want;
		} else if (want > orig->nice && !restorable) {
			/* Raised, it could never be lowered back on restore. */
			want = orig->nice;
		}
		out->nice = want;
	}
	if (target->slice_ns != 0) {
		out->runtime_ns = target->slice_ns;
	}
	if (target->uclamp_min >= 0) {
		out->util_min = target->uclamp_min;
	}
	/* What this kernel lacks stays as it was (hint_attr.h). */
	hint_kernel_mask(&hints->kernel, out, orig);
}

/*
 * The pid and tid still name the process and thread we took them for. A
 * live pidfd holds its pid: while it answers, the pid is the process's,
 * and a tid under /proc/PID/task with the thread's start time is that
 * thread.
 */
bool hints_member_verify(
		const struct hint_member *member, const struct hints_thread *thread) {
	uint64_t start;
	if (!proc_stat_pidfd_alive(member->pidfd)) {
		return false;
	}
	pid_t tid = thread != NULL ? thread->tid : member->pid;
	uint64_t want = thread != NULL ? thread->start : member->start;
	if (!peer_start_time(member->pid, tid, &start) || start != want) {
		return false;
	}
	/* Checked again last: a pid recycled after the reads fails here. */
	return proc_stat_pidfd_alive(member->pidfd);
}

static void log_change(struct hints_app *app, const struct hint_member *member,
		const struct hints_thread *thread, const struct hint_attr *want,
		const char *what) {
	sched_log(app->hints->config.mode == HINTS_DRY_RUN ? SCHED_LOG_INFO
													   : SCHED_LOG_DEBUG,
			"hints%s: pid %d tid %d %s: policy %" PRIu32 " nice %" PRId32
			" slice %" PRIu64 " ns uclamp_min %" PRId32 "%s",
			app->hints->config.mode == HINTS_DRY_RUN ? " (dry-run)" : "",
			(int)member->pid, (int)thread->tid, what, want->policy, want->nice,
			want->runtime_ns, want->util_min,
			want->reset_on_fork ? " reset-on-fork" : "");
}

void hints_member_forget_thread(struct hints_thread *thread, void *data) {
	struct hints_app *app = data;
	if (thread->changed && app->hints->journal != NULL) {
		hint_journal_remove(app->hints->journal, thread->tid);
	}
}

void hints_member_forget(struct hints_app *app, struct hint_member *member) {
	for (size_t i = 0; i < member->threads.count; i++) {
		hints_member_forget_thread(&member->threads.items[i], app);
	}
	hint_threads_finish(&member->threads);
}

const struct hints_target *hints_member_target(
		const struct hints_app *app, enum ratings_class class) {
	return app->fixed ? &app->fixed_target : &app->hints->config.targets[class];
}

/*
 * The process went away during the change of thread from current to
 * want. What the tid had just before goes back only to our own thread, as
 * its start time shows it: a tid that is someone else's now is not ours
 * to touch, whatever it shows.
 */
static void undo_change(struct hints_app *app, struct hint_member *member,
		struct hints_thread *thread, const struct hint_attr *want,
		const struct hint_attr *current) {
	struct hints *hints = app->hints;
	uint64_t start;
	struct hint_attr after;
	pid_t tid = thread->tid;
	bool ours =
			peer_start_time(member->pid, tid, &start) && start == thread->start;
	if (ours && hint_attr_get(tid, &after) && hint_attr_equal(&after, want)) {
		hint_attr_set(&hints->kernel, tid, current, want);
	}
	hints->undone++;
	sched_log(SCHED_LOG_INFO,
			"hints: pid %d went away during a change; tid %d %s",
			(int)member->pid, (int)tid,
			ours ? "given back what it had"
				 : "is no longer its own: left alone");
	if (member == hint_tree_root(&app->tree)) {
		app->gone = true;
	} else {
		/* Frees its threads: thread is not to be used after. */
		hints_member_leave(app, member);
	}
}

/* Gives one thread the attributes of class (restore: its saved ones). */
static void apply_thread(struct hints_app *app, struct hint_member *member,
		struct hints_thread *thread, enum ratings_class class, bool restore) {
	struct hints *hints = app->hints;
	const struct hints_target *target = hints_member_target(app, class);
	restore = restore || target->keep;
	if (thread->left_alone || (restore && !thread->changed)) {
		return;
	}
	struct hint_attr current, want;
	if (!hints_member_verify(member, thread)) {
		/* Read again at the next scan: a new thread, or none. */
		thread->stale = true;
		return;
	}
	if (!hint_attr_get(thread->tid, &current)) {
		return;
	}
	if (!thread->changed && !hint_fair_policy(current.policy)) {
		/* Real-time and SCHED_IDLE threads chose that: leave them be. */
		thread->left_alone = true;
		return;
	}
	if (hints->config.mode == HINTS_DRY_RUN) {
		if (restore) {
			log_change(app, member, thread, &thread->saved, "would restore");
			thread->changed = false;
			return;
		}
		if (!thread->changed) {
			thread->saved = current;
			thread->changed = true;
		}
		compute_target(app, member, target, &thread->saved, &want);
		log_change(app, member, thread, &want, ratings_class_name(class));
		hints->changes++;
		return;
	}
	if (!thread->changed) {
		/* Saved by hints_member_save; a thread that turned up since
		 * waits. */
		return;
	}
	if (restore) {
		want = thread->saved;
	} else {
		compute_target(app, member, target, &thread->saved, &want);
	}
	if (!hint_attr_equal(&want, &current)) {
		log_change(app, member, thread, &want,
				restore ? "restore" : ratings_class_name(class));
		if (!hint_attr_set(&hints->kernel, thread->tid, &want, &current)) {
			return;
		}
		hints->changes++;
		if (hints->after_change != NULL) {
			hints->after_change(app, thread->tid, hints->after_change_data);
		}
		if (!hints_member_verify(member, thread)) {
			undo_change(app, member, thread, &want, &current);
			return;
		}
	}
	if (restore) {
		hint_journal_remove(hints->journal, thread->tid);
		thread->changed = false;
	}
}

/* The main thread of pid among the application's, if fairway changed it. */
static const struct hints_thread *changed_main_thread(
		const struct hints_app *app, pid_t pid) {
	const struct hint_member *member = hint_tree_find(&app->tree, pid);
	if (member == NULL) {
		return NULL;
	}
	for (size_t i = 0; i < member->threads.count; i++) {
		const struct hints_thread *thread = &member->threads.items[i];
		if (thread->tid == pid) {
			return thread->changed ? thread : NULL;
		}
	}
	return NULL;
}

/*
 * A thread or process started by a hinted thread inherits SCHED_BATCH,
 * SCHED_IDLE and a raised nice: SCHED_FLAG_RESET_ON_FORK resets only
 * real-time policies, a lowered nice, slices and uclamp, and is itself
 * cleared in the child. Its original is what it would have had without
 * fairway: where it shows exactly the policy and nice that its process's
 * main thread (a new process: its parent's) has from fairway now, without
 * the flag, those are taken as inherited and its original is that
 * thread's. A thread that chose the same policy itself is taken for
 * inherited too, and given its parent's back at the end.
 */
static void uninherit(const struct hints_app *app,
		const struct hint_member *member, const struct hints_thread *thread,
		struct hint_attr *current) {
	const struct hints_thread *source = NULL;
	if (thread->tid != member->pid) {
		source = changed_main_thread(app, member->pid);
	} else if (member->parent > 0) {
		source = changed_main_thread(app, member->parent);
	}
	struct hint_attr now;
	if (source == NULL || current->reset_on_fork ||
			!hint_attr_get(source->tid, &now) ||
			(now.policy == source->saved.policy &&
					now.nice == source->saved.nice) ||
			current->policy != now.policy || current->nice != now.nice) {
		return;
	}
	current->policy = source->saved.policy;
	current->nice = source->saved.nice;
}

bool hints_member_save(struct hints_app *app, struct hint_member *member) {
	struct hints *hints = app->hints;
	if (hints->config.mode == HINTS_DRY_RUN) {
		return true;
	}
	for (size_t i = 0; i < member->threads.count; i++) {
		struct hints_thread *thread = &member->threads.items[i];
		if (thread->changed || thread->left_alone) {
			continue;
		}
		struct hint_attr current;
		if (!hints_member_verify(member, thread) ||
				!hint_attr_get(thread->tid, &current)) {
			continue;
		}
		struct hint_attr original = current;
		uninherit(app, member, thread, &original);
		if (!hint_fair_policy(original.policy)) {
			thread->left_alone = true;
			continue;
		}
		struct hint_journal_entry entry = {
				.pid = member->pid,
				.tid = thread->tid,
				.start = thread->start,
				.attr = original,
		};
		if (!hint_journal_add(hints->journal, &entry)) {
			return false;
		}
		thread->saved = original;
		thread->changed = true;
	}
	return true;
}

static void apply_threads(struct hints_app *app, struct hint_member *member,
		enum ratings_class class, bool restore, bool fresh_only) {
	for (size_t i = 0;
			i < member->threads.count && !app->gone && !member->leaving; i++) {
		struct hints_thread *thread = &member->threads.items[i];
		if (!fresh_only || !thread->seen) {
			apply_thread(app, member, thread, class, restore);
		}
		if (!member->leaving) {
			/* (Leaving, its threads are freed.) */
			thread->seen = true;
		}
	}
}

void hints_member_apply(struct hints_app *app, struct hint_member *member,
		enum ratings_class class, bool restore, bool fresh_only) {
	bool root = member == hint_tree_root(&app->tree);
	if (member->leaving) {
		return;
	}
	/*
	 * A descendant is of the application only while it shares the root's
	 * session and uid: one that called setsid() or changed uid since the
	 * walk is given nothing, and if it changed during the change, given
	 * back what it had.
	 */
	if (!root && !restore && !hint_tree_member_ours(&app->tree, member)) {
		hints_member_leave(app, member);
		return;
	}
	apply_threads(app, member, class, restore, fresh_only);
	if (!root && !restore && !member->leaving &&
			!hint_tree_member_ours(&app->tree, member)) {
		hints_member_leave(app, member);
	}
}

void hints_member_leave(struct hints_app *app, struct hint_member *member) {
	if (member->leaving) {
		return;
	}
	member->leaving = true;
	sched_log(SCHED_LOG_DEBUG,
			"hints: pid %d is no longer of pid %d's application",
			(int)member->pid, (int)hint_tree_root(&app->tree)->pid);
	for (size_t i = 0; i < member->threads.count; i++) {
		apply_thread(
				app, member, &member->threads.items[i], app->applied, true);
	}
	hints_member_forget(app, member);
}
