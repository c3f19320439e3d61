#include "scheduler/hints/hint_attr.h"
#include "scheduler/log.h"
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static int kernel_getattr(pid_t tid, struct hint_sched_attr *attr, void *data) {
	(void)data;
	return syscall(SYS_sched_getattr, tid, attr, sizeof(*attr), 0) == 0 ? 0
																		: errno;
}

static int kernel_setattr(
		pid_t tid, const struct hint_sched_attr *attr, void *data) {
	(void)data;
	return syscall(SYS_sched_setattr, tid, attr, 0) == 0 ? 0 : errno;
}

const struct hint_syscalls hint_syscalls_kernel = {
		.getattr = kernel_getattr,
		.setattr = kernel_setattr,
};

static const struct hint_syscalls *sys = &hint_syscalls_kernel;

void hint_syscalls_set(const struct hint_syscalls *ops) {
	sys = ops != NULL ? ops : &hint_syscalls_kernel;
}

const char *hint_part_name(enum hint_attr_part part) {
	switch (part) {
	case HINT_PART_NICE:
		return "nice";
	case HINT_PART_SLICE:
		return "slice";
	case HINT_PART_UCLAMP:
		return "uclamp";
	}
	return "?";
}

bool hint_attr_get(pid_t tid, struct hint_attr *attr) {
	struct hint_sched_attr abi = {0};
	int err = sys->getattr(tid, &abi, sys->data);
	if (err != 0) {
		errno = err;
		return false;
	}
	*attr = (struct hint_attr){
			.policy = abi.sched_policy,
			.reset_on_fork = (abi.sched_flags & HINT_FLAG_RESET_ON_FORK) != 0,
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

bool hint_kernel_supports(const struct hint_kernel *info, unsigned parts) {
	return (info->unsupported & parts) == 0;
}

void hint_kernel_mask(const struct hint_kernel *info, struct hint_attr *want,
		const struct hint_attr *orig) {
	if (!hint_kernel_supports(info, HINT_PART_NICE)) {
		want->policy = orig->policy;
		want->nice = orig->nice;
	}
	if (!hint_kernel_supports(info, HINT_PART_SLICE)) {
		want->runtime_ns = orig->runtime_ns;
	}
	if (!hint_kernel_supports(info, HINT_PART_UCLAMP)) {
		want->util_min = orig->util_min;
	}
}

/* The parts in which two sets of attributes differ. */
static unsigned parts_differ(
		const struct hint_attr *a, const struct hint_attr *b) {
	unsigned parts = 0;
	if (a->policy != b->policy || a->nice != b->nice) {
		parts |= HINT_PART_NICE;
	}
	if (a->runtime_ns != b->runtime_ns) {
		parts |= HINT_PART_SLICE;
	}
	if (a->util_min != b->util_min) {
		parts |= HINT_PART_UCLAMP;
	}
	return parts;
}

/*
 * One sched_setattr taking `parts` of want and the rest of current.
 * Returns 0 or the errno.
 */
static int send(const struct hint_kernel *info, pid_t tid, unsigned parts,
		const struct hint_attr *want, const struct hint_attr *current) {
	const struct hint_attr *nice = parts & HINT_PART_NICE ? want : current;
	const struct hint_attr *slice = parts & HINT_PART_SLICE ? want : current;
	struct hint_sched_attr abi = {
			.size = sizeof(abi),
			.sched_policy = nice->policy,
			.sched_nice = nice->nice,
			/* The default slice is asked for with 0, not its value. */
			.sched_runtime = slice->runtime_ns == info->base_slice_ns
					? 0
					: slice->runtime_ns,
			.sched_flags = want->reset_on_fork ? HINT_FLAG_RESET_ON_FORK : 0,
	};
	bool params = (parts & (HINT_PART_NICE | HINT_PART_SLICE)) != 0 ||
			want->reset_on_fork != current->reset_on_fork;
	if (!params) {
		abi.sched_flags |= HINT_FLAG_KEEP_POLICY | HINT_FLAG_KEEP_PARAMS;
	}
	if (parts & HINT_PART_UCLAMP) {
		abi.sched_flags |= HINT_FLAG_UTIL_CLAMP_MIN;
		/* -1 hands the clamp back to the system default (0 for min). */
		abi.sched_util_min =
				want->util_min <= 0 ? UINT32_MAX : (uint32_t)want->util_min;
	}
	int err = sys->setattr(tid, &abi, sys->data);
	if (err == EPERM && current->reset_on_fork && !want->reset_on_fork) {
		/* Clearing the fork flag needs CAP_SYS_NICE; it is harmless set. */
		abi.sched_flags |= HINT_FLAG_RESET_ON_FORK;
		err = sys->setattr(tid, &abi, sys->data);
		if (err == 0) {
			sched_log(SCHED_LOG_DEBUG,
					"hints: tid %d keeps SCHED_FLAG_RESET_ON_FORK (no "
					"CAP_SYS_NICE to clear it)",
					(int)tid);
		}
	}
	return err;
}

/* What a kernel without an attribute answers for it. */
static bool refused_as_unsupported(int err) {
	return err == EINVAL || err == EOPNOTSUPP || err == E2BIG;
}

static void mark_unsupported(struct hint_kernel *info, unsigned part, int err) {
	if (info->unsupported & part) {
		return;
	}
	info->unsupported |= part;
	sched_log(SCHED_LOG_INFO,
			"hints: the kernel refuses %s (%s): left alone from now on, the "
			"other attributes still set",
			hint_part_name(part), strerror(err));
}

/* Each part on its own, in the order the kernel needs them. */
static bool set_parts(struct hint_kernel *info, pid_t tid, unsigned parts,
		const struct hint_attr *want, const struct hint_attr *current) {
	static const enum hint_attr_part order[] = {
			HINT_PART_NICE, HINT_PART_SLICE, HINT_PART_UCLAMP};
	struct hint_attr now = *current;
	int failed = 0;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(parts & order[i])) {
			continue;
		}
		int err = send(info, tid, order[i], want, &now);
		if (err == 0) {
			/* What the thread has now, for the parts still to send. */
			if (order[i] == HINT_PART_NICE) {
				now.policy = want->policy;
				now.nice = want->nice;
			} else if (order[i] == HINT_PART_SLICE) {
				now.runtime_ns = want->runtime_ns;
			} else {
				now.util_min = want->util_min;
			}
			now.reset_on_fork = want->reset_on_fork;
		} else if (refused_as_unsupported(err)) {
			mark_unsupported(info, order[i], err);
		} else {
			failed = err;
		}
	}
	if (failed != 0) {
		errno = failed;
		return false;
	}
	return true;
}

bool hint_attr_set(struct hint_kernel *info, pid_t tid,
		const struct hint_attr *want_in, const struct hint_attr *current) {
	struct hint_attr want = *want_in;
	hint_kernel_mask(info, &want, current);
	struct hint_attr via;
	if (want.policy == SCHED_IDLE &&
			(want.nice != current->nice ||
					want.runtime_ns != current->runtime_ns)) {
		/* The kernel takes nice and slice only with SCHED_OTHER or
		 * SCHED_BATCH: they are set on the way to SCHED_IDLE. */
		via = want;
		via.policy = SCHED_BATCH;
		if (!hint_attr_set(info, tid, &via, current)) {
			return false;
		}
		current = &via;
		hint_kernel_mask(info, &want, current);
	}
	unsigned parts = parts_differ(&want, current);
	if (parts == 0 && want.reset_on_fork == current->reset_on_fork) {
		return true;
	}
	int err = send(info, tid, parts, &want, current);
	if (err == 0) {
		return true;
	}
	if (refused_as_unsupported(err) && parts != 0) {
		return set_parts(info, tid, parts, &want, current);
	}
	sched_log(SCHED_LOG_DEBUG, "hints: sched_setattr(%d): %s", (int)tid,
			strerror(err));
	errno = err;
	return false;
}

void hint_kernel_probe(struct hint_kernel *info) {
	struct hint_attr self;
	*info = (struct hint_kernel){0};
	bool known = hint_attr_get(0, &self);
	if (known && hint_fair_policy(self.policy)) {
		/* fairway runs without a custom slice of its own. */
		info->base_slice_ns = self.runtime_ns;
	}
	if (info->base_slice_ns == 0) {
		/* Before 6.12 a fair thread reports no slice and cannot have one. */
		info->unsupported |= HINT_PART_SLICE;
	}
	struct hint_sched_attr abi = {
			.size = sizeof(abi),
			.sched_flags = HINT_FLAG_KEEP_POLICY | HINT_FLAG_KEEP_PARAMS |
					HINT_FLAG_UTIL_CLAMP_MIN |
					(known && self.reset_on_fork ? HINT_FLAG_RESET_ON_FORK : 0),
			.sched_util_min = UINT32_MAX,
	};
	if (sys->setattr(0, &abi, sys->data) != 0) {
		info->unsupported |= HINT_PART_UCLAMP;
	}
}

#define CAP_SYS_NICE_BIT 23

int hint_rlimit_nice_floor(pid_t pid) {
	struct rlimit lim;
	if (prlimit(pid, RLIMIT_NICE, NULL, &lim) != 0 || lim.rlim_cur == 0) {
		return 20;
	}
	return 20 - (int)(lim.rlim_cur > 40 ? 40 : lim.rlim_cur);
}

bool hint_have_cap_sys_nice(void) {
	FILE *file = fopen("/proc/self/status", "re");
	if (file == NULL) {
		return false;
	}
	char line[256];
	unsigned long long caps = 0;
	while (fgets(line, sizeof(line), file) != NULL) {
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			break;
		}
	}
	fclose(file);
	return (caps >> CAP_SYS_NICE_BIT) & 1;
}
