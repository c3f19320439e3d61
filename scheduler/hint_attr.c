#include "scheduler/hint_attr.h"
#include "scheduler/log.h"
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc has no sched_setattr wrapper; this is the kernel's VER1 layout. */
struct sched_attr_abi {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

#define FLAG_RESET_ON_FORK 0x01
#define FLAG_KEEP_POLICY 0x08
#define FLAG_KEEP_PARAMS 0x10
#define FLAG_UTIL_CLAMP_MIN 0x20

bool hint_attr_get(pid_t tid, struct hint_attr *attr) {
	struct sched_attr_abi abi = {0};
	if (syscall(SYS_sched_getattr, tid, &abi, sizeof(abi), 0) != 0) {
		return false;
	}
	*attr = (struct hint_attr){
			.policy = abi.sched_policy,
			.reset_on_fork = (abi.sched_flags & FLAG_RESET_ON_FORK) != 0,
			.nice = abi.sched_nice,
			.runtime_ns = abi.sched_runtime,
			.util_min = (int32_t)abi.sched_util_min,
	};
	return true;
}

bool hint_attr_equal(const struct hint_attr *a, const struct hint_attr *b) {
	return a->policy == b->policy && a->reset_on_fork == b->reset_on_fork &&
			a->nice == b->nice && a->runtime_ns == b->runtime_ns &&
			a->util_min == b->util_min;
}

bool hint_fair_policy(uint32_t policy) {
	return policy == SCHED_OTHER || policy == SCHED_BATCH;
}

bool hint_attr_set(const struct hint_kernel *info, pid_t tid,
		const struct hint_attr *want, const struct hint_attr *current) {
	struct hint_attr via;
	if (want->policy == SCHED_IDLE &&
			(want->nice != current->nice ||
					want->runtime_ns != current->runtime_ns)) {
		/* The kernel takes nice and slice only with SCHED_OTHER or
		 * SCHED_BATCH: they are set on the way to SCHED_IDLE. */
		via = *want;
		via.policy = SCHED_BATCH;
		if (!hint_attr_set(info, tid, &via, current)) {
			return false;
		}
		current = &via;
	}
	struct sched_attr_abi abi = {
			.size = sizeof(abi),
			.sched_policy = want->policy,
			.sched_nice = want->nice,
			/* The default slice is asked for with 0, not its value. */
			.sched_runtime = want->runtime_ns == info->base_slice_ns
					? 0
					: want->runtime_ns,
	};
	bool params = want->policy != current->policy ||
			want->nice != current->nice ||
			want->runtime_ns != current->runtime_ns ||
			want->reset_on_fork != current->reset_on_fork;
	bool clamp = info->uclamp && want->util_min != current->util_min;
	if (!params && !clamp) {
		return true;
	}
	abi.sched_flags = want->reset_on_fork ? FLAG_RESET_ON_FORK : 0;
	if (!params) {
		abi.sched_flags |= FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS;
	}
	if (clamp) {
		abi.sched_flags |= FLAG_UTIL_CLAMP_MIN;
		/* -1 hands the clamp back to the system default (0 for min). */
		abi.sched_util_min =
				want->util_min <= 0 ? UINT32_MAX : (uint32_t)want->util_min;
	}
	if (syscall(SYS_sched_setattr, tid, &abi, 0) == 0) {
		return true;
	}
	if (errno == EPERM && current->reset_on_fork && !want->reset_on_fork) {
		/* Clearing the fork flag needs CAP_SYS_NICE; it is harmless set. */
		abi.sched_flags |= FLAG_RESET_ON_FORK;
		if (syscall(SYS_sched_setattr, tid, &abi, 0) == 0) {
			sched_log(SCHED_LOG_DEBUG,
					"hints: tid %d keeps SCHED_FLAG_RESET_ON_FORK (no "
					"CAP_SYS_NICE to clear it)",
					(int)tid);
			return true;
		}
	}
	sched_log(SCHED_LOG_DEBUG, "hints: sched_setattr(%d): %s", (int)tid,
			strerror(errno));
	return false;
}

void hint_kernel_probe(struct hint_kernel *info) {
	struct hint_attr self;
	info->base_slice_ns = 0;
	if (hint_attr_get(0, &self) && hint_fair_policy(self.policy)) {
		/* fairway runs without a custom slice of its own. */
		info->base_slice_ns = self.runtime_ns;
	}
	struct sched_attr_abi abi = {
			.size = sizeof(abi),
			.sched_flags = FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS |
					FLAG_UTIL_CLAMP_MIN |
					(self.reset_on_fork ? FLAG_RESET_ON_FORK : 0),
			.sched_util_min = UINT32_MAX,
	};
	info->uclamp = syscall(SYS_sched_setattr, 0, &abi, 0) == 0;
}
