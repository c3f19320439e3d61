#include "scheduler/hints/hints_internal.h"
#include "scheduler/hints/privilege.h"
#include "scheduler/log.h"
#include "scheduler/process/peer.h"
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <string.h>

/*
 * What a crashed fairway left: every entry of its journal, checked
 * against what fairway could have saved before it is given back.
 */

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

struct replay {
	struct hint_kernel kernel;
	struct hint_group_env groups;
	int groups_restored;
	struct hint_journal_report *report;
};

static void restore_entry(const struct hint_journal_entry *entry, void *data) {
	struct replay *replay = data;
	struct hint_kernel *info = &replay->kernel;
	struct hint_journal_report *report = replay->report;
	if (entry->kind != HINT_JOURNAL_THREAD) {
		replay->groups_restored +=
				hints_app_group_replay(&replay->groups, entry, report);
		return;
	}
	uint64_t start;
	struct hint_attr current;
	/* The start time names the very thread the journal saved. */
	if (!peer_start_time(entry->pid, entry->tid, &start) ||
			start != entry->start || !hint_attr_get(entry->tid, &current)) {
		report->gone++;
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
		report->refused++;
		return;
	}
	if (!hint_attr_equal(&current, &want) &&
			!hint_attr_set(info, entry->tid, &want, &current)) {
		sched_log(SCHED_LOG_ERROR,
				"hints: cannot restore pid %d tid %d to nice %" PRId32
				", policy %" PRIu32 ": %s",
				(int)entry->pid, (int)entry->tid, want.nice, want.policy,
				strerror(errno));
		report->failed++;
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
		report->gone++;
		return;
	}
	report->restored++;
}

int hints_replay_as(const char *state_dir, bool as_user) {
	struct hint_journal_report report;
	return hints_replay_report_as(state_dir, as_user, &report);
}

int hints_replay_report_as(const char *state_dir, bool as_user,
		struct hint_journal_report *report) {
	*report = (struct hint_journal_report){0};
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
	struct replay replay = {.report = report};
	hint_kernel_probe(&replay.kernel);
	hint_group_env_system(&replay.groups);
	int count = hint_journal_replay_report(
			state_dir, restore_entry, &replay, report);
	if (as_user) {
		privilege_restore(&saved);
	}
	if (count > 0) {
		sched_log(SCHED_LOG_INFO,
				"hints: %d entries of an old journal: %d restored (%d of them "
				"task groups), %d gone, %d not restored, %d refused",
				count, report->restored, replay.groups_restored, report->gone,
				report->failed, report->refused);
	}
	return count;
}

int hints_replay(const char *state_dir) {
	return hints_replay_as(state_dir, privilege_beyond_user());
}

int hints_replay_report(
		const char *state_dir, struct hint_journal_report *report) {
	return hints_replay_report_as(state_dir, privilege_beyond_user(), report);
}
