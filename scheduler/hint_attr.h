#ifndef FAIRWAY_SCHEDULER_HINT_ATTR_H
#define FAIRWAY_SCHEDULER_HINT_ATTR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * sched_getattr and sched_setattr for one thread (glibc wraps neither).
 */

/* Scheduling attributes as sched_getattr reports them. */
struct hint_attr {
	uint32_t policy;
	bool reset_on_fork;
	int32_t nice;
	uint64_t runtime_ns; /* EEVDF slice; 0: the kernel's default */
	int32_t util_min; /* -1: not user-defined (or no uclamp) */
};

/* What the kernel needs us to know to set attributes exactly. */
struct hint_kernel {
	bool uclamp; /* CONFIG_UCLAMP_TASK */
	/* What sched_getattr reports for a thread without a custom slice. */
	uint64_t base_slice_ns;
};

void hint_kernel_probe(struct hint_kernel *info);

/* A thread's attributes now; false if it is gone. */
bool hint_attr_get(pid_t tid, struct hint_attr *attr);
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
