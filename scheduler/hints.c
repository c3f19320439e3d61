#include "scheduler/hints.h"
#include "scheduler/log.h"
#include "scheduler/peer.h"
#include "scheduler/privilege.h"
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The lowest nice pid's own RLIMIT_NICE allows (20: none below theirs). */
static int rlimit_nice_floor(pid_t pid) {
	struct rlimit lim;
	if (prlimit(pid, RLIMIT_NICE, NULL, &lim) != 0 || lim.rlim_cur == 0) {
		return 20;
	}
	return 20 - (int)(lim.rlim_cur > 40 ? 40 : lim.rlim_cur);
}

/* The lowest nice fairway may give pid's threads. */
static int lowest_nice(struct hints *hints, pid_t pid) {
	return hints->cap_sys_nice ? -20 : rlimit_nice_floor(pid);
}

/* The lowest nice from which a restore could bring a thread back. */
static int lowest_undoable_nice(struct hints *hints, pid_t pid) {
	return hints->undo_as_user ? rlimit_nice_floor(pid)
							   : lowest_nice(hints, pid);
}

static void compute_target(struct hints_proc *proc,
		const struct hints_target *target, const struct hint_attr *orig,
		struct hint_attr *out) {
	struct hints *hints = proc->hints;
	*out = *orig;
	if (target->keep) {
		return;
	}
	int floor = lowest_nice(hints, proc->pid);
	/* What a raised nice and SCHED_IDLE both need to be undone, by a
	 * restore here or by a journal's replay after a crash. */
	bool restorable = lowest_undoable_nice(hints, proc->pid) <= orig->nice;
	out->policy = target->policy;
	if (out->policy == SCHED_IDLE && !restorable) {
		/* The kernel lets a thread leave SCHED_IDLE only for a nice
		 * that fairway could set: otherwise it would stay there. */
		out->policy = SCHED_BATCH;
	}
	if (out->policy == SCHED_IDLE && proc->never_idle) {
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

static bool pidfd_alive(int pidfd) {
	if (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0) {
		return true;
	}
	return errno == EPERM;
}

/*
 * The pid and tid still name the process and thread we took them for. A
 * live pidfd holds its pid: while it answers, the pid is the process's,
 * and a tid under /proc/PID/task with the thread's start time is that
 * thread.
 */
static bool verify(struct hints_proc *proc, struct hints_thread *thread) {
	uint64_t start;
	if (!pidfd_alive(proc->pidfd)) {
		return false;
	}
	if (thread == NULL) {
		if (!peer_start_time(proc->pid, proc->pid, &start) ||
				start != proc->start) {
			return false;
		}
	} else if (!peer_start_time(proc->pid, thread->tid, &start) ||
			start != thread->start) {
		return false;
	}
	/* Checked again last: a pid recycled after the reads fails here. */
	return pidfd_alive(proc->pidfd);
}

static void log_change(struct hints_proc *proc, struct hints_thread *thread,
		const struct hint_attr *want, const char *what) {
	sched_log(proc->hints->config.mode == HINTS_DRY_RUN ? SCHED_LOG_INFO
														: SCHED_LOG_DEBUG,
			"hints%s: pid %d tid %d %s: policy %" PRIu32 " nice %" PRId32
			" slice %" PRIu64 " ns uclamp_min %" PRId32 "%s",
			proc->hints->config.mode == HINTS_DRY_RUN ? " (dry-run)" : "",
			(int)proc->pid, (int)thread->tid, what, want->policy, want->nice,
			want->runtime_ns, want->util_min,
			want->reset_on_fork ? " reset-on-fork" : "");
}

/* A thread that exited: nothing left to restore, nor to journal. */
static void forget_thread(struct hints_thread *thread, void *data) {
	struct hints_proc *proc = data;
	if (thread->changed && proc->hints->journal != NULL) {
		hint_journal_remove(proc->hints->journal, thread->tid);
	}
}

static void forget_threads(struct hints_proc *proc) {
	for (size_t i = 0; i < proc->threads.count; i++) {
		forget_thread(&proc->threads.items[i], proc);
	}
	hint_threads_finish(&proc->threads);
}

/* What a process's threads get in class: its own target, if it has one. */
static const struct hints_target *proc_target(
		const struct hints_proc *proc, enum ratings_class class) {
	return proc->fixed ? &proc->fixed_target
					   : &proc->hints->config.targets[class];
}

/* Gives one thread the attributes of class (restore: its saved ones). */
static void apply_thread(struct hints_proc *proc, struct hints_thread *thread,
		enum ratings_class class, bool restore) {
	struct hints *hints = proc->hints;
	struct hint_kernel *info = &hints->kernel;
	const struct hints_target *target = proc_target(proc, class);
	restore = restore || target->keep;
	if (thread->left_alone || (restore && !thread->changed)) {
		return;
	}
	struct hint_attr current, want;
	if (!verify(proc, thread)) {
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
			log_change(proc, thread, &thread->saved, "would restore");
			thread->changed = false;
			return;
		}
		if (!thread->changed) {
			thread->saved = current;
			thread->changed = true;
		}
		compute_target(proc, target, &thread->saved, &want);
		log_change(proc, thread, &want, ratings_class_name(class));
		hints->changes++;
		return;
	}
	if (!thread->changed) {
		/* Saved by apply_class; a thread that turned up since waits. */
		return;
	}
	if (restore) {
		want = thread->saved;
	} else {
		compute_target(proc, target, &thread->saved, &want);
	}
	if (!hint_attr_equal(&want, &current)) {
		log_change(proc, thread, &want,
				restore ? "restore" : ratings_class_name(class));
		if (!hint_attr_set(info, thread->tid, &want, &current)) {
			return;
		}
		hints->changes++;
		if (hints->after_change != NULL) {
			hints->after_change(proc, thread->tid, hints->after_change_data);
		}
		if (!verify(proc, thread)) {
			/*
			 * The process went away during the change. What the tid had
			 * just before goes back only to our own thread, as its start
			 * time shows it: a tid that is someone else's now is not ours
			 * to touch, whatever it shows.
			 */
			uint64_t start;
			struct hint_attr after;
			bool ours = peer_start_time(proc->pid, thread->tid, &start) &&
					start == thread->start;
			if (ours && hint_attr_get(thread->tid, &after) &&
					hint_attr_equal(&after, &want)) {
				hint_attr_set(info, thread->tid, &current, &want);
			}
			hints->undone++;
			proc->gone = true;
			sched_log(SCHED_LOG_INFO,
					"hints: pid %d went away during a change; tid %d %s",
					(int)proc->pid, (int)thread->tid,
					ours ? "given back what it had"
						 : "is no longer its own: left alone");
			return;
		}
	}
	if (restore) {
		hint_journal_remove(hints->journal, thread->tid);
		thread->changed = false;
	}
}

/* Saves and journals the threads about to be changed for the first time. */
static bool save_threads(struct hints_proc *proc) {
	struct hints *hints = proc->hints;
	if (hints->config.mode == HINTS_DRY_RUN) {
		return true;
	}
	for (size_t i = 0; i < proc->threads.count; i++) {
		struct hints_thread *thread = &proc->threads.items[i];
		if (thread->changed || thread->left_alone) {
			continue;
		}
		struct hint_attr current;
		if (!verify(proc, thread) || !hint_attr_get(thread->tid, &current)) {
			continue;
		}
		if (!hint_fair_policy(current.policy)) {
			thread->left_alone = true;
			continue;
		}
		struct hint_journal_entry entry = {
				.pid = proc->pid,
				.tid = thread->tid,
				.start = thread->start,
				.attr = current,
		};
		if (!hint_journal_add(hints->journal, &entry)) {
			return false;
		}
		thread->saved = current;
		thread->changed = true;
	}
	/* Written ahead: a crash from here on leaves the originals on disk. */
	return hint_journal_sync(hints->journal);
}

static void apply_class(struct hints_proc *proc, enum ratings_class class,
		bool restore, bool fresh_only) {
	struct hints *hints = proc->hints;
	if (!restore && !proc_target(proc, class)->keep && !save_threads(proc)) {
		sched_log(SCHED_LOG_ERROR, "hints: no journal, so no change to pid %d",
				(int)proc->pid);
		return;
	}
	for (size_t i = 0; i < proc->threads.count && !proc->gone; i++) {
		struct hints_thread *thread = &proc->threads.items[i];
		if (!fresh_only || !thread->seen) {
			apply_thread(proc, thread, class, restore);
		}
		thread->seen = true;
	}
	if (hints->journal != NULL) {
		hint_journal_sync(hints->journal);
	}
}

/*
 * Brings the threads up to date; new ones have seen == false until
 * apply_class gets to them. Returns how many threads wait for the class.
 */
static size_t scan_threads(struct hints_proc *proc) {
	if (hint_threads_scan(&proc->threads, proc->pid, forget_thread, proc) < 0) {
		return 0;
	}
	if (proc->threads.untracked > 0 && !proc->told_untracked) {
		proc->told_untracked = true;
		sched_log(SCHED_LOG_INFO,
				"hints: pid %d has %zu threads more than the %d hinted",
				(int)proc->pid, proc->threads.untracked, HINT_THREADS_MAX);
	}
	size_t unseen = 0;
	for (size_t i = 0; i < proc->threads.count; i++) {
		unseen += !proc->threads.items[i].seen;
	}
	return unseen;
}

struct hints *hints_create(
		const struct hints_config *config, const char *state_dir) {
	struct hints *hints = calloc(1, sizeof(*hints));
	if (hints == NULL) {
		return NULL;
	}
	hints->config = *config;
	wl_list_init(&hints->procs);
	hint_kernel_probe(&hints->kernel);
	hints->cap_sys_nice = hint_have_cap_sys_nice();
	hints->undo_as_user = privilege_beyond_user();
	struct rlimit lim = {0};
	getrlimit(RLIMIT_NICE, &lim);
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
			"hints %s: CAP_SYS_NICE %s, RLIMIT_NICE %llu, uclamp %s, "
			"custom slices %s, default slice %" PRIu64 " ns; %s",
			hints_mode_name(config->mode), hints->cap_sys_nice ? "yes" : "no",
			(unsigned long long)lim.rlim_cur,
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
	struct hints_proc *proc, *tmp;
	wl_list_for_each_safe(proc, tmp, &hints->procs, link) {
		hints_proc_destroy(proc);
	}
	hint_journal_destroy(hints->journal);
	free(hints);
}

struct hints_proc *hints_proc_create(
		struct hints *hints, pid_t pid, int pidfd, uid_t uid) {
	if (pid <= 0) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	struct hints_proc *proc = calloc(1, sizeof(*proc));
	if (proc == NULL) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	proc->hints = hints;
	proc->pid = pid;
	proc->pidfd = pidfd;
	proc->uid = uid;
	proc->wanted = proc->applied = RATINGS_IDLE;
	sched_token_bucket_init(&proc->tokens, hints->config.burst);
	hint_threads_init(&proc->threads);
	if (proc->pidfd < 0) {
		proc->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	}
	/* The start time read while the pidfd's process is alive is its own. */
	if (proc->pidfd < 0 || !peer_start_time(pid, pid, &proc->start) ||
			!peer_uids_are(pid, uid) || !pidfd_alive(proc->pidfd)) {
		sched_log(SCHED_LOG_DEBUG,
				"hints: pid %d is gone already, or not of uid %d alone",
				(int)pid, (int)uid);
		if (proc->pidfd >= 0) {
			close(proc->pidfd);
		}
		free(proc);
		return NULL;
	}
	wl_list_insert(&hints->procs, &proc->link);
	return proc;
}

void hints_proc_destroy(struct hints_proc *proc) {
	if (proc == NULL) {
		return;
	}
	if (!proc->gone && verify(proc, NULL)) {
		apply_class(proc, proc->applied, true, false);
	}
	forget_threads(proc);
	if (proc->hints->journal != NULL) {
		hint_journal_sync(proc->hints->journal);
	}
	wl_list_remove(&proc->link);
	close(proc->pidfd);
	free(proc);
}

void hints_proc_never_idle(struct hints_proc *proc) {
	proc->never_idle = true;
}

static bool take_token(struct hints_proc *proc, int64_t now) {
	const struct hints_config *config = &proc->hints->config;
	return sched_token_bucket_take(
			&proc->tokens, config->burst, config->refill_ns, now);
}

void hints_proc_update(struct hints_proc *proc, int64_t now) {
	if (proc->gone) {
		return;
	}
	bool alive = verify(proc, NULL);
	if (alive && !peer_uids_are(proc->pid, proc->uid)) {
		/* It exec'd a setuid program, say: no longer the client's own. */
		sched_log(SCHED_LOG_INFO,
				"hints: pid %d no longer runs as uid %d alone: given back "
				"what it had, and left alone",
				(int)proc->pid, (int)proc->uid);
		apply_class(proc, proc->applied, true, false);
		alive = false;
	}
	if (!alive) {
		proc->gone = true;
		forget_threads(proc);
		if (proc->hints->journal != NULL) {
			hint_journal_sync(proc->hints->journal);
		}
		return;
	}
	size_t unseen = scan_threads(proc);
	if ((proc->wanted != proc->applied || proc->retarget) &&
			take_token(proc, now)) {
		sched_log(SCHED_LOG_INFO, "hints: pid %d %s -> %s%s", (int)proc->pid,
				ratings_class_name(proc->applied),
				ratings_class_name(proc->wanted),
				proc->fixed ? " (a target of its own)" : "");
		proc->applied = proc->wanted;
		proc->retarget = false;
		bool restore = proc_target(proc, proc->wanted)->keep;
		apply_class(proc, proc->applied, restore, false);
	} else if (unseen > 0 && proc->wanted == proc->applied &&
			(proc_target(proc, proc->applied)->keep || take_token(proc, now))) {
		/* New threads cost a change too: a process that keeps starting
		 * threads is hinted no faster than one that changes class. */
		apply_class(proc, proc->applied, proc_target(proc, proc->applied)->keep,
				true);
	}
}

void hints_proc_set_class(
		struct hints_proc *proc, enum ratings_class class, int64_t now) {
	proc->wanted = class;
	hints_proc_update(proc, now);
}

static bool target_equal(
		const struct hints_target *a, const struct hints_target *b) {
	return a->keep == b->keep && a->policy == b->policy &&
			a->set_nice == b->set_nice && a->nice == b->nice &&
			a->slice_ns == b->slice_ns && a->uclamp_min == b->uclamp_min;
}

void hints_proc_set_target(
		struct hints_proc *proc, const struct hints_target *target) {
	bool fixed = target != NULL;
	if (fixed == proc->fixed &&
			(!fixed || target_equal(target, &proc->fixed_target))) {
		return;
	}
	proc->fixed = fixed;
	if (fixed) {
		proc->fixed_target = *target;
	}
	proc->retarget = true;
}

/* The kernel's bounds on a custom slice (and hints_config.c's). */
#define MIN_SLICE_NS (100 * 1000)
#define MAX_SLICE_NS (100 * 1000 * 1000)

/*
 * A journal entry is a thread's original attributes, which fairway saved
 * before its first change: only a thread in SCHED_OTHER or SCHED_BATCH is
 * ever changed, and every change sets the fork flag and one of the
 * policies hints use. So an entry asking for anything else, or for a
 * thread without that mark, was never fairway's: it is refused. The
 * values are held to the kernel's ranges, and nice to no lower than
 * fairway's floor unless the thread is there already (state_dir.h keeps
 * others' files out; this is the second line).
 */
static bool clamp_entry(const struct hint_kernel *info, struct hint_attr *want,
		const struct hint_attr *current) {
	if (!hint_fair_policy(want->policy) || !current->reset_on_fork ||
			!(hint_fair_policy(current->policy) ||
					current->policy == SCHED_IDLE)) {
		return false;
	}
	int floor =
			current->nice < HINTS_NICE_FLOOR ? current->nice : HINTS_NICE_FLOOR;
	if (want->nice < floor) {
		want->nice = floor;
	} else if (want->nice > 19) {
		want->nice = 19;
	}
	if (want->runtime_ns != 0 && want->runtime_ns != info->base_slice_ns) {
		if (want->runtime_ns < MIN_SLICE_NS) {
			want->runtime_ns = MIN_SLICE_NS;
		} else if (want->runtime_ns > MAX_SLICE_NS) {
			want->runtime_ns = MAX_SLICE_NS;
		}
	}
	if (want->util_min < -1) {
		want->util_min = -1;
	} else if (want->util_min > 1024) {
		want->util_min = 1024;
	}
	return true;
}

static void restore_entry(const struct hint_journal_entry *entry, void *data) {
	struct hint_kernel *info = data;
	uint64_t start;
	struct hint_attr current;
	/* The start time names the very thread the journal saved. */
	if (!peer_start_time(entry->pid, entry->tid, &start) ||
			start != entry->start || !hint_attr_get(entry->tid, &current)) {
		return;
	}
	struct hint_attr want = entry->attr;
	if (!clamp_entry(info, &want, &current)) {
		sched_log(SCHED_LOG_ERROR,
				"hints: journal entry for tid %d refused: policy %" PRIu32
				" on a thread with policy %" PRIu32 "%s is nothing fairway "
				"saved",
				(int)entry->tid, entry->attr.policy, current.policy,
				current.reset_on_fork ? "" : " and no fork flag");
		return;
	}
	if (!hint_attr_equal(&current, &want) &&
			!hint_attr_set(info, entry->tid, &want, &current)) {
		sched_log(SCHED_LOG_ERROR, "hints: cannot restore tid %d: %s",
				(int)entry->tid, strerror(errno));
		return;
	}
	/*
	 * Gone between the check and the change: the tid may be someone
	 * else's now, and what it holds is not ours to give or take back.
	 */
	if (!peer_start_time(entry->pid, entry->tid, &start) ||
			start != entry->start) {
		sched_log(SCHED_LOG_INFO,
				"hints: tid %d went away during its restore; left alone",
				(int)entry->tid);
	}
}

int hints_replay_as(const char *state_dir, bool as_user) {
	if (state_dir == NULL) {
		return 0;
	}
	struct privilege_saved saved;
	if (as_user) {
		if (!privilege_drop_nice(&saved)) {
			sched_log(SCHED_LOG_ERROR,
					"hints: journals in %s not replayed: they must be with "
					"the user's privileges only, and CAP_SYS_NICE could not "
					"be dropped",
					state_dir);
			return -1;
		}
		sched_log(SCHED_LOG_INFO,
				"hints: journals in %s, which the user's processes may "
				"write, are replayed with the user's privileges only",
				state_dir);
	}
	struct hint_kernel info;
	hint_kernel_probe(&info);
	int count = hint_journal_replay(state_dir, restore_entry, &info);
	if (as_user) {
		privilege_restore(&saved);
	}
	if (count > 0) {
		sched_log(SCHED_LOG_INFO,
				"hints: restored %d thread(s) from an old journal", count);
	}
	return count;
}

int hints_replay(const char *state_dir) {
	return hints_replay_as(state_dir, privilege_beyond_user());
}

void hints_set_targets(struct hints *hints,
		const struct hints_target targets[RATINGS_CLASS_COUNT]) {
	memcpy(hints->config.targets, targets, sizeof(hints->config.targets));
	struct hints_proc *proc;
	wl_list_for_each(proc, &hints->procs, link) {
		if (!proc->gone) {
			apply_class(proc, proc->applied,
					proc_target(proc, proc->applied)->keep, false);
		}
	}
}
