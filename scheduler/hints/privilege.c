#include "scheduler/hints/privilege.h"
#include "scheduler/log.h"
#include <errno.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* This thread's capability sets, in the kernel's two 32-bit halves. */
static bool get_caps(struct __user_cap_data_struct data[2]) {
	struct __user_cap_header_struct header = {
			.version = _LINUX_CAPABILITY_VERSION_3,
	};
	return syscall(SYS_capget, &header, data) == 0;
}

static bool set_caps(const struct __user_cap_data_struct data[2]) {
	struct __user_cap_header_struct header = {
			.version = _LINUX_CAPABILITY_VERSION_3,
	};
	return syscall(SYS_capset, &header, data) == 0;
}

bool privilege_beyond_user(void) {
	if (geteuid() == 0) {
		return false;
	}
	struct __user_cap_data_struct data[2];
	if (!get_caps(data)) {
		/* Unknown: take the careful side. */
		return true;
	}
	return data[0].permitted != 0 || data[1].permitted != 0;
}

bool privilege_drop_nice(struct privilege_saved *saved) {
	*saved = (struct privilege_saved){0};
	struct __user_cap_data_struct data[2];
	if (!get_caps(data)) {
		return false;
	}
	saved->effective[0] = data[0].effective;
	saved->effective[1] = data[1].effective;
	uint32_t bit = CAP_TO_MASK(CAP_SYS_NICE);
	struct __user_cap_data_struct *half = &data[CAP_TO_INDEX(CAP_SYS_NICE)];
	if (!(half->effective & bit)) {
		return true;
	}
	half->effective &= ~bit;
	if (!set_caps(data)) {
		sched_log(SCHED_LOG_ERROR, "cannot drop CAP_SYS_NICE: %s",
				strerror(errno));
		return false;
	}
	saved->dropped = true;
	return true;
}

void privilege_restore(const struct privilege_saved *saved) {
	if (!saved->dropped) {
		return;
	}
	struct __user_cap_data_struct data[2];
	if (!get_caps(data)) {
		return;
	}
	data[0].effective = saved->effective[0];
	data[1].effective = saved->effective[1];
	if (!set_caps(data)) {
		sched_log(SCHED_LOG_ERROR, "cannot raise CAP_SYS_NICE again: %s",
				strerror(errno));
	}
}
