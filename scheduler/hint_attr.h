#ifndef FAIRWAY_SCHEDULER_HINT_ATTR_H
#define FAIRWAY_SCHEDULER_HINT_ATTR_H

#include "scheduler/hint_journal.h"
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * sched_getattr and sched_setattr for one thread (glibc wraps neither).
 * Attributes are struct hint_attr (hint_journal.h), as sched_getattr
 * reports them.
 */

/* What the kernel needs us to know to set attributes exactly. */
struct hint_kernel {
	bool uclamp; /* CONFIG_UCLAMP_TASK */
	/* What sched_getattr reports for a thread without a custom slice. */
	uint64_t base_slice_ns;
};

void hint_kernel_probe(struct hint_kernel *info);

bool hints_get_attr(pid_t tid, struct hint_attr *attr);
bool hint_attr_equal(const struct hint_attr *a, const struct hint_attr *b);
/* SCHED_OTHER or SCHED_BATCH: the policies hints may change a thread from. */
bool hint_fair_policy(uint32_t policy);

/*
 * Moves a thread from `current` to `want`, both as sched_getattr reports.
 * Only what differs is sent: when policy, nice, slice and the fork flag
 * stay, KEEP_POLICY|KEEP_PARAMS stop the kernel from resetting nice and
 * slice to their defaults.
 */
bool hint_attr_set(const struct hint_kernel *info, pid_t tid,
		const struct hint_attr *want, const struct hint_attr *current);

#endif
