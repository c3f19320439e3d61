#include "compositor/sched/self_priority.h"
#include "scheduler/hint_attr.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wlr/util/log.h>

bool fw_self_priority_raise(void) {
	struct hint_sched_attr attr = {0};
	if (syscall(SYS_sched_getattr, 0, &attr, sizeof(attr), 0) != 0) {
		wlr_log_errno(WLR_INFO, "Own priority: sched_getattr");
		return false;
	}
	if (attr.sched_policy != 0 && attr.sched_policy != 3) {
		/* Real-time or SCHED_IDLE: whoever started us chose that. */
		wlr_log(WLR_INFO, "Own priority: policy %u left as it is",
				attr.sched_policy);
		return attr.sched_policy != 5;
	}
	if (attr.sched_nice <= FW_SELF_NICE) {
		return true;
	}
	struct rlimit lim = {0};
	getrlimit(RLIMIT_NICE, &lim);
	/* RLIMIT_NICE n allows nice down to 20 - n. */
	bool allowed = hint_have_cap_sys_nice() || lim.rlim_cur == RLIM_INFINITY ||
			20 - (long long)lim.rlim_cur <= FW_SELF_NICE;
	if (!allowed) {
		wlr_log(WLR_INFO,
				"Own priority: staying at nice %d, no CAP_SYS_NICE and "
				"RLIMIT_NICE %llu (nice %d needs %d)",
				attr.sched_nice, (unsigned long long)lim.rlim_cur, FW_SELF_NICE,
				20 - FW_SELF_NICE);
		return false;
	}
	attr = (struct hint_sched_attr){
			.size = sizeof(attr),
			.sched_policy = attr.sched_policy,
			.sched_flags = HINT_FLAG_RESET_ON_FORK,
			.sched_nice = FW_SELF_NICE,
			/* 0: the default slice, as the thread had. */
	};
	if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0) {
		wlr_log(WLR_INFO, "Own priority: cannot take nice %d: %s", FW_SELF_NICE,
				strerror(errno));
		return false;
	}
	wlr_log(WLR_INFO,
			"Own priority: main thread at nice %d, reset on fork "
			"(clients and later threads start from the defaults)",
			FW_SELF_NICE);
	return true;
}
