#ifndef FAIRWAY_SCHEDULER_HINTS_HINT_ATTR_H
#define FAIRWAY_SCHEDULER_HINTS_HINT_ATTR_H

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

/*
 * The attributes a kernel may refuse one by one: policy and nice (every
 * kernel has them, but a seccomp filter or an LSM may say no), the custom
 * slice (sched_attr.sched_runtime for fair threads, Linux 6.12 on) and
 * uclamp (CONFIG_UCLAMP_TASK).
 */
enum hint_attr_part {
	HINT_PART_NICE = 1u << 0, /* policy and nice */
	HINT_PART_SLICE = 1u << 1,
	HINT_PART_UCLAMP = 1u << 2,
};
#define HINT_PART_ALL (HINT_PART_NICE | HINT_PART_SLICE | HINT_PART_UCLAMP)

const char *hint_part_name(enum hint_attr_part part);

/* What the kernel lets us set, learnt at start and as it refuses. */
struct hint_kernel {
	/* What sched_getattr reports for a thread without a custom slice. */
	uint64_t base_slice_ns;
	/* Parts refused with EINVAL, EOPNOTSUPP or E2BIG: never sent again. */
	unsigned unsupported;
};

/*
 * Finds what the running kernel takes: uclamp by trying it on fairway's
 * own thread, slices by whether sched_getattr reports one (kernels before
 * 6.12 report 0, and take sched_runtime silently without using it).
 */
void hint_kernel_probe(struct hint_kernel *info);
bool hint_kernel_supports(const struct hint_kernel *info, unsigned parts);
/*
 * Leaves in `want` what `orig` has for each part the kernel does not
 * take, so that a thread is not asked again and again for what it
 * cannot have.
 */
void hint_kernel_mask(const struct hint_kernel *info, struct hint_attr *want,
		const struct hint_attr *orig);

/* A thread's attributes now; false if it is gone. */
bool hint_attr_get(pid_t tid, struct hint_attr *attr);
/* Whether this process may lower nice values and leave SCHED_IDLE for
 * any process (CAP_SYS_NICE in its effective set). */
bool hint_have_cap_sys_nice(void);
/* The lowest nice pid's RLIMIT_NICE allows (pid 0: this process's): n
 * allows 20 - n; 20 where it allows none or cannot be read. */
int hint_rlimit_nice_floor(pid_t pid);
bool hint_attr_equal(const struct hint_attr *a, const struct hint_attr *b);
/* SCHED_OTHER or SCHED_BATCH: the policies hints may change a thread from. */
bool hint_fair_policy(uint32_t policy);

/*
 * Moves a thread from `current` to `want`, both as sched_getattr reports.
 * Only what differs is sent: when policy, nice, slice and the fork flag
 * stay, KEEP_POLICY|KEEP_PARAMS stop the kernel from resetting nice and
 * slice to their defaults. All in one call first; if the kernel refuses it
 * as unsupported, each part on its own, so that one it lacks costs only
 * that part: the part is marked in info->unsupported and logged once.
 * True when every part the kernel supports was set; false with errno set.
 */
bool hint_attr_set(struct hint_kernel *info, pid_t tid,
		const struct hint_attr *want, const struct hint_attr *current);

/* The kernel's sched_attr, VER1 (uclamp) layout. */
struct hint_sched_attr {
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

#define HINT_FLAG_RESET_ON_FORK 0x01
#define HINT_FLAG_KEEP_POLICY 0x08
#define HINT_FLAG_KEEP_PARAMS 0x10
#define HINT_FLAG_UTIL_CLAMP_MIN 0x20

/*
 * The seam to the kernel: tests put a fake one in (hint_syscalls_set) to
 * play a kernel that refuses some attributes. Each returns 0 or an errno.
 */
struct hint_syscalls {
	int (*getattr)(pid_t tid, struct hint_sched_attr *attr, void *data);
	int (*setattr)(pid_t tid, const struct hint_sched_attr *attr, void *data);
	void *data;
};

/* The kernel's own calls, for a fake to fall through to. */
extern const struct hint_syscalls hint_syscalls_kernel;
/* NULL: the kernel's own again. */
void hint_syscalls_set(const struct hint_syscalls *ops);

#endif
